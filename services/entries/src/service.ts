import { EmployeesClient, FleetClient, ReferenceFxClient } from '@travel/contracts';
import { delegatorsVia } from './app/delegators';
import {
  apiRouter,
  ConditionalGets,
  internalTransports,
  parseConfig,
  startOrphanSweep,
  startService,
  type StartOptions,
} from '@travel/platform';
import { PerDiemCalculator } from './app/per-diem-calculator';
import { perDiemCalculatorRoutes } from './http/per-diem-calculator-routes';
import { PerDiemsApp } from './app/per-diems';
import { PerDiemPricer } from './app/per-diem-pricer';
import { EntryAccess } from './app/entry-access';
import { perDiemRoutes } from './http/per-diem-routes';
import { AttachmentsApp } from './app/attachments';
import { ATTACHMENTS_STORE, attachmentSweep } from './app/orphan-attachments';
import { EntriesApp } from './app/entries';
import { ExpensesApp } from './app/expenses';
import { UsageRefusals } from './app/usage-refusals';
import { publicRoutes } from './http/routes';
import { documentRoutes } from './http/document-routes';
import { DocumentsApp } from './app/documents';
import { renderPdf } from './infra/pdf-layout';
import { PayoutMarks } from './app/payout-marks';
import { PayoutPeriods } from './app/payout-periods';
import { announceUnknownAmountsDue } from './app/entry-changed';
import { internalPayoutRoutes } from './http/internal-payout-routes';
import { AttachmentStore, inspectImage } from './infra/attachment-store';
import { FxConverter } from './infra/fx-client';
import { ENTRIES_COLLECTION, entriesRepositories } from './infra/repositories';
import { startUsageRefusedConsumer } from './infra/usage-refused-consumer';
import { startReadingMadeConsumer } from './infra/reading-made-consumer';
import { ReadingStore } from './infra/reading-store';
import { ReadingsApp } from './app/readings';
import { ReadingBackfill } from './app/reading-backfill';
import { companyMarkets } from './infra/company-markets';
import { internalAttachmentRoutes } from './http/internal-attachment-routes';
import { OfflinePlaces } from './infra/places';
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from './domain/attachment';
import { EntryNumberIssuer } from './app/entry-numbers';
import { WorkflowApp } from './app/workflow';
import { workflowRoutes } from './http/workflow-routes';
import { ExportsApp } from './app/exports';
import { exportRoutes } from './http/export-routes';
import { JournalApp } from './app/journal';
import { AccountingPeriodsApp } from './app/accounting-periods';
import { accountingPeriodRoutes } from './http/accounting-period-routes';
import { JOURNAL_ACCOUNTS_COLLECTION, JournalAccountsStore } from './infra/journal-accounts-store';

import { ExpensePolicyApp } from './app/expense-policy';
import { expensePolicyRoutes } from './http/expense-policy-routes';
import { ExpensePolicyStore } from './infra/expense-policy-store';

import { configSchema, SERVICE } from './config';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export function start(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics, jobs }) => {
      const repos = entriesRepositories(mongo);
      const attachmentStore = new AttachmentStore(mongo);
      let orphanSweep: { stop(): Promise<void> } | undefined;
      // The providers' published clients (contracts/src/clients), over transports signed with entries' key.
      const to = internalTransports(SERVICE, config.signingKey);
      const referenceFx = new ReferenceFxClient(to('reference-fx', config.referenceFxUrl));
      const fx = new FxConverter(referenceFx);
      const vehicles = new FleetClient(to('fleet', config.fleetUrl));
      const employees = new EmployeesClient(to('employees', config.employeesUrl));
      // Attachments stored before the receipts service existed get their reading, once (0202).
      const backfill = new ReadingBackfill(repos, companyMarkets(employees), logger);
      const pricer = new PerDiemPricer(fx, employees, referenceFx);
      // The expense policy: every write of an entry and its children stores its findings (0203).
      const policy = new ExpensePolicyApp(new ExpensePolicyStore(mongo, repos.versions), employees);
      const places = new OfflinePlaces();
      // Who may read and change an entry: asked by every use case on an entry and its children (0168).
      const access = new EntryAccess(repos, delegatorsVia(employees));
      // The receipts' readings, projected from the receipts service's events (docs/decisions/0200).
      const readingStore = new ReadingStore(mongo, repos.versions);
      const readings = new ReadingsApp(repos, access, readingStore, logger);
      const attachments = new AttachmentsApp(repos, access, attachmentStore, inspectImage, readingStore, policy);
      const entries = new EntriesApp(repos, employees, fx, vehicles, attachments, pricer, places, policy);
      const calculator = new PerDiemCalculator(employees, fx, referenceFx);
      // Every public GET of entries and the workflow answers from the collections' versions (0155, 0159).
      const reads = new ConditionalGets(repos.versions);
      const api = apiRouter();
      api.use(
        publicRoutes({
          reads,
          entriesCollection: repos.entries,
          entries,
          expenses: new ExpensesApp(repos, access, fx, vehicles, readingStore, policy),
          attachments,
          readings,
          readingsCollection: readingStore,
        }),
      );
      api.use(perDiemCalculatorRoutes(calculator));
      api.use(perDiemRoutes(new PerDiemsApp(repos, access, pricer, policy)));
      api.use(expensePolicyRoutes(policy, reads));
      // The approval workflow and trip requests (docs/decisions/0066–0068).
      const numbers = new EntryNumberIssuer(repos, repos.counters, logger);
      const workflow = new WorkflowApp(repos, access, employees, numbers, policy);
      api.use(workflowRoutes(workflow, reads, repos.workflows));
      // The travel order and the settlement as PDF (docs/decisions/0137).
      api.use(documentRoutes(new DocumentsApp(access, employees, vehicles, renderPdf)));
      // The payroll and journal exports: entries, per-diems, mileage, advances and payout marks are all here (0141).
      const journal = new JournalApp(repos, new JournalAccountsStore(mongo, repos.versions));
      const exportsApp = new ExportsApp(repos);
      api.use(exportRoutes(exportsApp, journal, reads));
      // Closed months: every write path above asks the periods' store; a close freezes the exports (0207, 0208).
      api.use(accountingPeriodRoutes(new AccountingPeriodsApp(repos, exportsApp, journal)));
      return {
        api,
        reads,
        // The payouts context reserves, commits, releases and undoes the entries of its batches (0075).
        // The receipts service reads attachments' bytes (0200).
        // A batch is never dated in a closed month nor undone in one (0211): the company's market from employees.
        internal: apiRouter().use(
          internalPayoutRoutes(new PayoutMarks(repos, new PayoutPeriods(repos, companyMarkets(employees)))),
          internalAttachmentRoutes(attachments),
        ),
        // More than 5 files or a file over 10 MiB in one upload: 413 before anything is read into the app.
        upload: { maxFileBytes: MAX_FILE_BYTES, maxFiles: MAX_FILES_PER_UPLOAD },
        outboxCollections: [ENTRIES_COLLECTION, JOURNAL_ACCOUNTS_COLLECTION],
        // Entries announced with an unknown per-diem counted as 0 are announced again (0109).
        migrate: async () => {
          const announced = await announceUnknownAmountsDue(repos);
          if (announced) logger.info({ announced }, 'entries with an unknown amount due announced to payouts');
        },
        // fleet refuses a vehicle use it cannot record: the Mileage row's vehicle is cleared.
        start: async () => {
          // The geocoding fallback's place index, built before the first write needs it (0131).
          places.load();
          // Authorizations whose number a stopped process did not store yet are completed first.
          await numbers.recover().catch((err: unknown) => logger.warn({ err }, 'pending entry numbers not recovered'));
          await startUsageRefusedConsumer({
            client: amqp,
            mongo,
            logger,
            metrics,
            refusals: new UsageRefusals(repos, logger),
          });
          await startReadingMadeConsumer({ client: amqp, mongo, logger, metrics, readings });
          // In the background: it asks employees for each company's market, and the API must not wait.
          backfill.start();
          // Attachment bytes a crash left without their entry's record (docs/decisions/0114).
          orphanSweep = startOrphanSweep({
            store: ATTACHMENTS_STORE,
            sweep: attachmentSweep(attachmentStore, repos),
            jobs,
          });
        },
        stop: async () => {
          await orphanSweep?.stop();
          await backfill.stop();
        },
      };
    },
    options,
  );
}
