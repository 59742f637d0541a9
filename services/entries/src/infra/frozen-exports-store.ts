// The exports of closed months as they were at the close (docs/decisions/0208), kept beside the periods in
// chunks: a month's journal has several lines per entry paid out, so a large company's month would outgrow
// one document (16 MB in MongoDB). The period's document keeps only a reference (`FrozenRef`): when, which
// freeze, each sheet's name and columns, and the journal's refusal. The chunks are written before the
// period's document names them and dropped after it stops naming them, so a reader never meets a
// reference without its rows; a freeze that lost its race leaves chunks nobody names, dropped at once.
import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { TenantModel, tenantScoped, type TenantId } from '@travel/platform';
import type { Sheet } from './spreadsheet';

/** The journal of a closed month as it was at the close: its lines, or the refusal it answered then. */
export interface FrozenJournal {
  /** The sheet's rows, each with the payout date of its entry (`payoutDate`, not a column). */
  sheet: Sheet | null;
  /** The 409 `CONFLICT` detail the month's journal answered at the close (an account without a number). */
  refusal: string | null;
}

/** The month's exports as they were at the close, served as they are while it stays closed. */
export interface FrozenExports {
  at: Date;
  payroll: { summary: Sheet; entries: Sheet };
  journal: FrozenJournal;
}

type SheetHead = Omit<Sheet, 'rows'>;

/** What the period's document keeps of its frozen exports: the rows are in chunks under `id`. */
export interface FrozenRef {
  at: Date;
  id: string;
  payroll: { summary: SheetHead; entries: SheetHead };
  journal: { sheet: SheetHead | null; refusal: string | null };
}

type Part = 'payroll.summary' | 'payroll.entries' | 'journal';

interface ChunkDoc {
  _id: string;
  tenantId: string;
  freezeId: string;
  part: Part;
  seq: number;
  rows: Record<string, string>[];
}

export const FROZEN_EXPORTS_COLLECTION = 'accounting_period_exports';
/** Rows per chunk: a journal row is a few hundred bytes, so a chunk stays near 1 MB at most. */
export const ROWS_PER_CHUNK = 2000;

function chunkModel(conn: Connection): Model<ChunkDoc> {
  if (conn.models.FrozenExportChunk) return conn.models.FrozenExportChunk as Model<ChunkDoc>;
  const schema = new Schema<ChunkDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      freezeId: { type: String, required: true },
      part: { type: String, required: true },
      seq: { type: Number, required: true },
      rows: { type: Schema.Types.Mixed, default: [] },
    },
    { collection: FROZEN_EXPORTS_COLLECTION, versionKey: false, minimize: false },
  );
  schema.index({ tenantId: 1, freezeId: 1, part: 1, seq: 1 });
  schema.plugin(tenantScoped);
  return conn.model<ChunkDoc>('FrozenExportChunk', schema);
}

const head = ({ name, columns }: Sheet): SheetHead => ({ name, columns });

export class FrozenExportsStore {
  private readonly chunks: TenantModel<ChunkDoc>;

  constructor(conn: Connection) {
    this.chunks = new TenantModel(chunkModel(conn));
  }

  /** Writes the rows in chunks under a new freeze id; the reference names them. */
  async put(tenant: TenantId, frozen: FrozenExports): Promise<FrozenRef> {
    const id = randomUUID();
    const parts: [Part, readonly Record<string, string>[]][] = [
      ['payroll.summary', frozen.payroll.summary.rows],
      ['payroll.entries', frozen.payroll.entries.rows],
      ['journal', frozen.journal.sheet?.rows ?? []],
    ];
    const docs = parts.flatMap(([part, rows]) =>
      Array.from({ length: Math.ceil(rows.length / ROWS_PER_CHUNK) }, (_, seq) => ({
        _id: `${tenant}:${id}:${part}:${seq}`,
        freezeId: id,
        part,
        seq,
        rows: rows.slice(seq * ROWS_PER_CHUNK, (seq + 1) * ROWS_PER_CHUNK),
      })),
    );
    if (docs.length) await this.chunks.of(tenant).insertMany(docs);
    return {
      at: frozen.at,
      id,
      payroll: { summary: head(frozen.payroll.summary), entries: head(frozen.payroll.entries) },
      journal: { sheet: frozen.journal.sheet && head(frozen.journal.sheet), refusal: frozen.journal.refusal },
    };
  }

  /** The payroll sheets a reference names. */
  async payroll(tenant: TenantId, ref: FrozenRef): Promise<FrozenExports['payroll']> {
    const [summary, entries] = await Promise.all([
      this.rows(tenant, ref.id, 'payroll.summary'),
      this.rows(tenant, ref.id, 'payroll.entries'),
    ]);
    return { summary: { ...ref.payroll.summary, rows: summary }, entries: { ...ref.payroll.entries, rows: entries } };
  }

  /** The journal rows a reference names (empty for a journal frozen as a refusal). */
  journalRows(tenant: TenantId, ref: FrozenRef): Promise<Record<string, string>[]> {
    return ref.journal.sheet ? this.rows(tenant, ref.id, 'journal') : Promise.resolve([]);
  }

  /** Drops the chunks of a freeze no period names any more. */
  async drop(tenant: TenantId, id: string): Promise<void> {
    await this.chunks.of(tenant).deleteMany({ freezeId: id });
  }

  private async rows(tenant: TenantId, id: string, part: Part): Promise<Record<string, string>[]> {
    const docs = await this.chunks
      .of(tenant)
      .find({ freezeId: id, part })
      .sort({ seq: 1 })
      .lean<Pick<ChunkDoc, 'rows'>[]>()
      .exec();
    return docs.flatMap((d) => d.rows);
  }
}
