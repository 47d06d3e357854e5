// Inserts that arrive together are stored together: the insertMany calls that reach a plant store in
// one turn of the event loop (the creates of concurrent POST /plants) go to it as one insertMany, in
// one transaction, each caller's plants in its order and the callers in theirs, so every plant is
// decided as it would have been had the calls come one after another (of two with one id, the first
// inserts and the second finds it). Each caller still makes its own audit records and events (its
// `record`), and gets its own outcomes. PostgreSQL's plant store is built with it: a create alone
// cost five round trips and Prisma's work for each, all paid in the server's CPU, and a group pays
// them once (docs/performance.md#where-a-creates-time-goes-on-postgresql). SQLite's is not:
// its connection already shares one commit among the writes of a turn, and statements there cost
// microseconds (lib/db/sqlite/connection.ts).
import 'server-only';
import { recordCreateGroup } from '../metrics/registry';
import { perTurn, takeGroup } from './groups';
import type { ChangeRecords, InsertOutcome, PlantChange, PlantStore, PlantValues, RecordChanges } from './stores';

type Waiting = { plants: PlantValues[]; record: RecordChanges; resolve(outcomes: InsertOutcome[]): void; reject(error: unknown): void };

/** At most this many plants in one transaction, as a batch's chunk (lib/plants/batch.ts). */
const MAX_GROUP_PLANTS = 250;

/** `store`, with the insertMany calls of each turn stored together (a call of many plants alone). */
export function insertsTogether(store: PlantStore): PlantStore {
  async function storeGroup(waiting: Waiting[]) {
    const group = takeGroup(waiting, (call) => call.plants.length, MAX_GROUP_PLANTS);
    if (group.length === 0) return;
    recordCreateGroup(group.length);
    if (group.length === 1) {
      const [{ plants, record, resolve, reject }] = group;
      return store.insertMany(plants, record).then(resolve, reject);
    }
    // Whose each made plant is: the first caller that asked for its id.
    const callerOf = new Map<bigint, number>();
    group.forEach(({ plants }, caller) => plants.forEach(({ id }) => callerOf.has(id) || callerOf.set(id, caller)));
    const callers: ChangeRecords[] = [];
    let together: ChangeRecords | undefined;
    const record: RecordChanges = (changes, options) => {
      callers.length = 0;
      const byCaller = group.map((): PlantChange[] => []);
      for (const change of changes) byCaller[callerOf.get(change.kind === 'deleted' ? change.previous.id : change.plant.id)!].push(change);
      together = { audit: [], events: [] };
      byCaller.forEach((mine, caller) => {
        if (mine.length === 0) return;
        const records = group[caller].record(mine, options);
        callers.push(records);
        together!.audit.push(...records.audit);
        together!.events.push(...records.events);
      });
      return together;
    };
    try {
      const outcomes = await store.insertMany(group.flatMap(({ plants }) => plants), record);
      // The store takes out of the records the events it did not keep (lib/db/plant-store.ts): each
      // caller's own records show the same, so none wakes the dispatcher for nothing.
      if (together?.events.length === 0) for (const records of callers) records.events.length = 0;
      let from = 0;
      for (const { plants, resolve } of group) {
        resolve(outcomes.slice(from, from + plants.length));
        from += plants.length;
      }
    } catch (error) {
      for (const { reject } of group) reject(error);
    }
  }

  const add = perTurn(storeGroup);
  return {
    ...store,
    insertMany(plants, record, order) {
      // A batch's chunk has its own place among the chunks before it: stored alone, at once.
      if (order) return store.insertMany(plants, record, order);
      return new Promise((resolve, reject) => add({ plants, record, resolve, reject }));
    },
  };
}
