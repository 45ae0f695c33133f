import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * What no route accepts, checked once for every route before its schema:
 * a NUL character in any string or key of the path parameters, the query or
 * a parsed body (PostgreSQL text cannot hold it, so it would otherwise reach
 * the database as a 500), and JSON nested deeper than any of our shapes (a
 * recursive schema or serializer would run out of stack). Routes and schemas
 * added later are covered without doing anything.
 */
export const MAX_INPUT_DEPTH = 64;

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problem = findProblem(request.params, '') ?? findProblem(request.query, '') ?? findProblem(request.body, '');
    if (problem) throw new AppError('VALIDATION', {}, [problem]);
  });
}

export interface InputProblem {
  /** Dotted path of the offending value, as validation errors name fields. */
  path: string;
  message: string;
  params?: Record<string, unknown>;
}

interface Node {
  value: unknown;
  depth: number;
  parent: Node | undefined;
  key: string;
}

/** The dotted path of a node; a very deep one keeps its first steps only. */
const pathOf = (node: Node): string => {
  const parts: string[] = [];
  for (let n: Node | undefined = node; n; n = n.parent) if (n.key) parts.push(n.key);
  parts.reverse();
  return parts.length > 10 ? `${parts.slice(0, 10).join('.')}...` : parts.join('.');
};

/**
 * The first NUL or excessive nesting in `input`, walked without recursion so
 * that the check itself cannot overflow the stack. Buffers and streams (file
 * uploads) are left to their own parsers.
 */
export function findProblem(input: unknown, rootKey: string): InputProblem | undefined {
  const stack: Node[] = [{ value: input, depth: 0, parent: undefined, key: rootKey }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { path: pathOf(node), message: 'validation.nul' };
      continue;
    }
    // Buffers and streams (uploads) are left to their own readers: only parsed JSON and query values are walked.
    if (!value || typeof value !== 'object' || Buffer.isBuffer(value) || value instanceof Stream) continue;
    if (node.depth >= MAX_INPUT_DEPTH) return { path: pathOf(node), message: 'validation.tooDeep', params: { max: MAX_INPUT_DEPTH } };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: node.depth + 1, parent: node, key: String(i) });
      continue;
    }
    for (const key of Object.keys(value)) {
      const child: Node = { value: (value as Record<string, unknown>)[key], depth: node.depth + 1, parent: node, key };
      if (key.includes('\u0000')) return { path: pathOf(child).replaceAll('\u0000', '\\u0000'), message: 'validation.nul' };
      stack.push(child);
    }
  }
  return undefined;
}
