import type { Model, Schema } from 'mongoose';

// A record's last change, kept by the schema rather than by each write (docs/decisions/0159): delta sync
// goes by `editedAt` (0156), and a write path that forgot to set it would hide a change from a partner.

/**
 * Adds `editedAt`: set at creation, and `$set` to now by every `updateOne`, `updateMany` and
 * `findOneAndUpdate` of the model, whichever use case, consumer or job makes it.
 */
export function keepsEditedAt(schema: Schema): void {
  schema.add({ editedAt: { type: Date, default: () => new Date() } });
  schema.pre(['updateOne', 'updateMany', 'findOneAndUpdate'], function () {
    this.set({ editedAt: new Date() });
  });
}

/**
 * Records written before `editedAt` existed get `at` (the start-up): no later than any change they had,
 * so a delta from before it lists them and one from after it does not, as they have not changed since.
 * On the driver (the hooks would not matter, the tenant guard is for the use cases' queries); idempotent.
 * It changes no answer (`editedAt` orders deltas): no version is bumped.
 */
export async function stampMissingEditedAt(model: Model<any>, at = new Date()): Promise<number> {
  const result = await model.collection.updateMany({ editedAt: { $exists: false } }, { $set: { editedAt: at } });
  return result.modifiedCount;
}
