import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Action, Target } from '../../core/targets.js';

/**
 * Every API route declares who may call it in `config.access`: 'public' or a
 * permission target and action; 'operator' is the platform operator's
 * (agencies), which no tenant role grants. A route without a declaration stops the app
 * from building, so none can be forgotten. The identity issue enforces the
 * target/action pairs against the session's rules.
 */
export type Access = 'public' | 'session' | 'operator' | { target: Target; action: Action };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
  /** The route's request schemas, for tests that walk every route with bad input. */
  schema?: FastifySchema;
}

export function declareAccessRegistry(app: FastifyInstance): RouteAccess[] {
  const registry: RouteAccess[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!access) {
      throw new Error(`Route ${methods.join(',')} ${route.url} does not declare config.access`);
    }
    for (const method of methods) registry.push({ method, url: route.url, access, schema: route.schema });
  });
  return registry;
}
