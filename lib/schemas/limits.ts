// The plant schemas' limits as plain numbers, free of zod, so a page can size its inputs (and the
// import page its chunks) without loading the schema engine: the forms load it only when they
// first validate (components/deferred-resolver.ts). lib/schemas/plant.ts builds its rules from
// these; every module that needs one of them imports it from here.
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const NAME_MAX_LENGTH = 200;
export const TAG_MAX_LENGTH = 100;
/** The most NewPlants one `POST /plants/batch` takes; the import page sends chunks of this size. */
export const BATCH_MAX_ITEMS = 1000;
