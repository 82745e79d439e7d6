import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import {
  OP_CATEGORIES_GET,
  OP_CATEGORY_MODELS_GET,
  categoriesQuery,
  categoriesResponse,
  categoryModelsResponse,
} from '../schemas/categories.schemas.js';
import { modelSummary, requireModel } from '../services/categories.service.js';
import type { ApiServices } from '../services/index.js';

const TAG = 'Categories';

export function categoriesRoutes(router: Router, { categories }: ApiServices): void {
  router.add({
    method: 'GET',
    url: '/resources/v2/categories',
    operationId: OP_CATEGORIES_GET,
    summary: 'The category taxonomy of a model, flat (slug lists) or as a map with labels',
    tag: TAG,
    auth: 'client',
    query: categoriesQuery,
    response: categoriesResponse,
    handler: async ({ query }) => {
      const data = query.format === 'map' ? categories.map(query.model, query.label) : categories.flat(query.model, query.label);
      return envelope(OP_CATEGORIES_GET, data, { model: modelSummary(requireModel(query.model)) });
    },
  });

  router.add({
    method: 'GET',
    url: '/resources/v2/categories/models',
    operationId: OP_CATEGORY_MODELS_GET,
    summary: 'The categorisation models',
    tag: TAG,
    auth: 'client',
    response: categoryModelsResponse,
    handler: async () => envelope(OP_CATEGORY_MODELS_GET, categories.models()),
  });
}
