import { CATEGORY_MODELS, findModel, type CategoryDefinition, type CategoryLabel, type CategoryModel } from '../../domain/taxonomy.js';
import { validationError } from '../errors.js';

export interface ModelSummary {
  name: string;
  description: string;
  deprecated: boolean;
}

export interface FlatCategories {
  categories: string[];
  subcategories: string[];
}

export type MapCategories = Array<{ name: string; labels: CategoryLabel[]; subcategories: Array<{ name: string; labels: CategoryLabel[] }> }>;

export function modelSummary(m: CategoryModel): ModelSummary {
  return { name: m.name, description: m.description, deprecated: m.deprecated };
}

export function requireModel(name: string): CategoryModel {
  const model = findModel(name);
  if (!model) throw validationError({ model: `unknown categorisation model '${name}'` });
  return model;
}

/**
 * With a label, an L2 is kept when it carries the label, and an L1 when it
 * carries it or keeps any L2.
 */
function filtered(model: CategoryModel, label: CategoryLabel | undefined): CategoryDefinition[] {
  if (label === undefined) return [...model.categories];
  return model.categories
    .map((c) => ({ ...c, subcategories: c.subcategories.filter((s) => s.labels.includes(label)) }))
    .filter((c) => c.labels.includes(label) || c.subcategories.length > 0);
}

export class CategoriesService {
  models(): ModelSummary[] {
    return CATEGORY_MODELS.map(modelSummary);
  }

  flat(modelName: string, label?: CategoryLabel): FlatCategories {
    const cats = filtered(requireModel(modelName), label);
    return {
      categories: cats.map((c) => c.name),
      subcategories: [...new Set(cats.flatMap((c) => c.subcategories.map((s) => s.name)))],
    };
  }

  map(modelName: string, label?: CategoryLabel): MapCategories {
    return filtered(requireModel(modelName), label).map((c) => ({
      name: c.name,
      labels: [...c.labels],
      subcategories: c.subcategories.map((s) => ({ name: s.name, labels: [...s.labels] })),
    }));
  }
}
