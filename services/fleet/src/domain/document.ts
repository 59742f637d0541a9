import type { DocumentType } from './document-file';

// Documents of a vehicle (registration, insurance policy, inspection report…): metadata; the bytes are
// stored apart. Pure types.

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
