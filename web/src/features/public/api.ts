import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { publicEntityListSchema, publicEntitySchema, publicProgrammeDetailSchema } from '../../../../core/api/public.js';
import type { Wire } from '../../../../core/api/wire.js';
import { ApiError, apiFetch } from '../../lib/api.js';

export type { ApplicationsState, Bilingual } from '../../../../core/api/public.js';

/** GET /api/public/entities: a page of the entities with public programmes. */
export type PublicEntityList = Wire<z.infer<typeof publicEntityListSchema>>;
/** GET /api/public/entities/:entity. */
export type PublicEntity = Wire<z.infer<typeof publicEntitySchema>>;
/** One programme as an entity's page lists it. */
export type PublicProgramme = PublicEntity['programmes'][number];
/** GET /api/public/entities/:entity/protocols/:code. */
export type PublicProgrammeDetail = Wire<z.infer<typeof publicProgrammeDetailSchema>>;

const PATH = '/api/public/entities';

/** The public pages' queries; nothing here needs a session, and a sign-in or sign-out leaves them as they are. */
export const publicKeys = {
  all: ['public'] as const,
  entities: (search: string, page: number) => [...publicKeys.all, 'entities', search, page] as const,
  entity: (entity: string) => [...publicKeys.all, 'entity', entity] as const,
  programme: (entity: string, code: string) => [...publicKeys.all, 'programme', entity, code] as const,
};

/** An address that names nothing public (404), or nothing at all (400): the page says "not found". */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

// The pages show their own "not found" and errors: no toast.
const quiet = { meta: { silentError: true }, staleTime: 60_000 } as const;

export const PUBLIC_PAGE_SIZE = 24;

export function usePublicEntities(search: string, page: number) {
  return useQuery({
    queryKey: publicKeys.entities(search, page),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page), limit: String(PUBLIC_PAGE_SIZE), sortBy: 'name' });
      if (search) params.set('search', search);
      return apiFetch<PublicEntityList>(`${PATH}?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
    ...quiet,
  });
}

export function usePublicEntity(entity: string) {
  return useQuery({
    queryKey: publicKeys.entity(entity),
    queryFn: ({ signal }) => apiFetch<PublicEntity>(`${PATH}/${encodeURIComponent(entity)}`, { signal }),
    ...quiet,
  });
}

export function usePublicProgramme(entity: string, code: string) {
  return useQuery({
    queryKey: publicKeys.programme(entity, code),
    queryFn: ({ signal }) => apiFetch<PublicProgrammeDetail>(`${PATH}/${encodeURIComponent(entity)}/protocols/${encodeURIComponent(code)}`, { signal }),
    ...quiet,
  });
}
