import { z } from 'zod';
import { CATEGORY_MODELS } from '../../domain/taxonomy.js';
import { emptyObject, envelopeOf } from './common.js';

export const OP_CATEGORIES_GET = 'resources_v2_categories_get';
export const OP_CATEGORY_MODELS_GET = 'resources_v2_models_get';

const LABELS = ['essential', 'nonessential', 'travel'] as const;

export const categoriesQuery = z.object({
  format: z.enum(['flat', 'map']).default('flat'),
  model: z
    .string()
    .refine((m) => CATEGORY_MODELS.some((x) => x.name === m), { message: `must be one of: ${CATEGORY_MODELS.map((m) => m.name).join(', ')}` })
    .default('uk-v2'),
  label: z.enum(LABELS).optional(),
});

export type CategoriesQuery = z.output<typeof categoriesQuery>;

export const modelOut = z.object({ name: z.string(), description: z.string(), deprecated: z.boolean() });

const labelsOut = z.array(z.enum(LABELS));

export const flatCategoriesOut = z.object({ categories: z.array(z.string()), subcategories: z.array(z.string()) });
export const mapCategoriesOut = z.array(
  z.object({ name: z.string(), labels: labelsOut, subcategories: z.array(z.object({ name: z.string(), labels: labelsOut })) }),
);

export const categoriesResponse = envelopeOf(OP_CATEGORIES_GET, z.union([flatCategoriesOut, mapCategoriesOut]), z.object({ model: modelOut }));
export const categoryModelsResponse = envelopeOf(OP_CATEGORY_MODELS_GET, z.array(modelOut), emptyObject);
