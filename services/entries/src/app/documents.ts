// An entry's travel order and settlement as PDF (issue 23 §1; docs/decisions/0137): read with the entry's
// own visibility, the parties from the employees and fleet contexts, drawn by the shared layout.
import { AppError, type CallerContext } from '@travel/platform';
import type { EntryAccess } from './entry-access';
import {
  mileageVehicleIds,
  namedEmployeeIds,
  settlement,
  travelOrder,
  type DocumentKind,
  type PrintedDocument,
} from '../domain/documents/document';

export interface CompanyAndNames {
  company: { name: string; address: string | null; registrationNumber: string | null; vatNumber: string | null };
  people: { id: string; name: string }[];
}

export interface DocumentSources {
  documentParties(tenantId: string, employeeIds: readonly string[]): Promise<CompanyAndNames>;
  plate(tenantId: string, vehicleId: string): Promise<string | null>;
}

export type PdfRenderer = (printed: PrintedDocument, info: { title: string; createdAt: Date }) => Promise<Buffer>;

export interface RenderedDocument {
  fileName: string;
  pdf: Buffer;
}

export class DocumentsApp {
  constructor(
    private readonly access: Pick<EntryAccess, 'readable'>,
    private readonly employees: Pick<DocumentSources, 'documentParties'>,
    private readonly vehicles: Pick<DocumentSources, 'plate'>,
    private readonly draw: PdfRenderer,
  ) {}

  async document(caller: CallerContext, entryId: string, kind: DocumentKind): Promise<RenderedDocument> {
    const entry = await this.access.readable(caller, entryId);
    // SPEC: a trip request is an order to travel; it is settled only once authorized (then no longer a request).
    if (kind === 'settlement' && entry.isRequest)
      throw new AppError(
        'INVALID_STATE',
        'A trip request has a travel order but no settlement: the settlement exists once the trip is authorized.',
      );
    const vehicleIds = mileageVehicleIds(entry);
    const [parties, plates] = await Promise.all([
      this.employees.documentParties(caller.tenantId, namedEmployeeIds(entry)),
      Promise.all(vehicleIds.map(async (id) => [id, await this.vehicles.plate(caller.tenantId, id)] as const)),
    ]);
    const sources = {
      company: parties.company,
      names: new Map(parties.people.map((p) => [p.id, p.name])),
      plates: new Map(plates),
    };
    const market = caller.market;
    const printed = kind === 'settlement' ? settlement(market, entry, sources) : travelOrder(market, entry, sources);
    const number = entry.entryNumber || entry._id;
    return {
      fileName: `${kind}-${number}.pdf`,
      pdf: await this.draw(printed, { title: printed.title, createdAt: new Date() }),
    };
  }
}
