import type { DocumentType } from './document-file';

// Documents of a vehicle (registration, insurance policy, inspection report…): metadata; the bytes are
// stored apart. Pure types and mapping.

export interface VehicleDocument {
  _id: string;
  tenantId: string;
  vehicleId: string;
  fileName: string;
  contentType: DocumentType;
  size: number;
  sha256: string;
  uploadedAt: Date;
  uploadedByEmployeeId: string;
}

export function toDocumentResponse(d: VehicleDocument) {
  return {
    id: d._id,
    vehicleId: d.vehicleId,
    fileName: d.fileName,
    contentType: d.contentType,
    size: d.size,
    sha256: d.sha256,
    uploadedAt: d.uploadedAt.toISOString(),
    uploadedByEmployeeId: d.uploadedByEmployeeId,
  };
}
