import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorFallback } from '../components/ErrorFallback.js';

/** The router's errorElement: what a page threw while rendering or loading. */
export function RouteErrorPage() {
  const error = useRouteError();
  const shown = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error;
  return <ErrorFallback error={shown} />;
}
