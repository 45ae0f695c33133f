import type { Drill } from '../../../../core/api/reports.js';

/**
 * The page a drill-down opens: the server names a list and that list's own
 * query parameters, which each page reads from its address (/tasks and
 * /cases their filters, /pendings its paging, the tracking by user's rows
 * the reports page's filters).
 */
export function drillHref(drill: Drill): string | null {
  if (!drill) return null;
  const query = new URLSearchParams();
  if (drill.list === 'userActions') {
    query.set('report', 'tracking-by-user');
    query.set('view', 'rows');
  }
  for (const [name, value] of Object.entries(drill.query)) {
    if (Array.isArray(value)) for (const v of value) query.append(name, v);
    else query.set(name, value);
  }
  const path = { tasks: '/tasks', cases: '/cases', pending: '/pendings', userActions: '/reportes' }[drill.list];
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}
