// `POST /plants/batch`: its body and its answer, for the API and the OpenAPI document. (The
// browser reads the answer's type only; BATCH_MAX_ITEMS lives in plant.ts, which it may load.)
import { z } from 'zod';
import { ErrorBody } from './error';
import { BATCH_MAX_ITEMS } from './limits';
import { NewPlant, Plant } from './plant';

/**
 * A batch's body may be larger than one plant's: 1000 NewPlants at their longest, every
 * character written as a \u escape, come to just under this (docs/performance.md#reading-json-bodies
 * reads such a body).
 */
export const BATCH_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/** How many JSON values a batch's body may hold: 16 an item, four times what a plant needs. */
export const BATCH_JSON_VALUES_LIMIT = BATCH_MAX_ITEMS * 16;

export const NewPlantBatch = z.array(NewPlant).max(BATCH_MAX_ITEMS).meta({
  id: 'NewPlantBatch',
  description: `Up to ${BATCH_MAX_ITEMS} plants to add, each as \`POST /plants\` takes it.`,
});

const index = z.int().min(0).meta({ description: 'The position of the item in the request, from 0.' });

export const BatchItemResult = z
  .union([
    z.object({
      index,
      status: z.literal(200),
      created: z.boolean().meta({
        description: '`true` when this request stored the plant; `false` when it was already there with the same content (a safe retry).',
      }),
      plant: Plant,
    }),
    z.object({
      index,
      status: z.union([z.literal(400), z.literal(409)]).meta({
        description: '400: the item breaks a rule of NewPlant; 409: its id is taken by a plant with another name or tag.',
      }),
      error: ErrorBody,
    }),
  ])
  .meta({ id: 'BatchItemResult', description: 'What became of one item, with the status `POST /plants` would have answered.' });
export type BatchItemResult = z.infer<typeof BatchItemResult>;

export const BatchResult = z
  .object({ results: z.array(BatchItemResult).meta({ description: 'One result per item, in the order of the request.' }) })
  .meta({ id: 'BatchResult' });
