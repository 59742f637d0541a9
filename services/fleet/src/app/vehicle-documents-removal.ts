// Its own module: deleting a vehicle takes its documents with it, without the vehicles use case depending on
// the documents use case (each asks VehicleAccess who sees what; docs/decisions/0169, 0212).
import type { TenantId } from '@travel/platform';
import type { FleetRepositories } from '../infra/repositories';

/** After a vehicle is deleted its documents go with it (metadata first, then the bytes). */
export async function deleteDocumentsOf(repos: FleetRepositories, tenant: TenantId, vehicleId: string): Promise<void> {
  const documents = repos.documents.of(tenant);
  const ids = (await documents.find({ vehicleId }, { _id: 1 }).lean()).map((d) => d._id);
  if (!ids.length) return;
  await documents.deleteMany({ _id: { $in: ids } });
  await repos.documentContents.of(tenant).deleteMany({ _id: { $in: ids } });
}
