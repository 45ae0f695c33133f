import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api.js';

/** The part of a TanStack query result this component reads. */
export interface QueryLike<T> {
  data: T | undefined;
  isError: boolean;
  error: unknown;
  refetch?: () => unknown;
}

interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** What to show once the data is there. */
  children: (data: T) => ReactNode;
  /** The loading placeholder's height, close to the content's so the page does not jump. */
  height?: number;
  /** When the data counts as empty, `empty` shows instead of the children. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** A Retry button beside the error, which loads the query again. */
  retry?: boolean;
  /** Another way on beside the error (a link to the list the record was in). */
  errorAction?: ReactNode;
}

/**
 * A query's three states in one place: why it failed (an alert, with Retry
 * if asked for), a named placeholder while it loads, then the content, or
 * the empty state when there is nothing.
 */
export function QueryState<T>({ query, children, height = 160, isEmpty, empty, retry = false, errorAction }: QueryStateProps<T>) {
  const { t } = useTranslation();
  if (query.isError) {
    return (
      <Alert
        severity="error"
        action={
          retry && query.refetch ? (
            <Button color="inherit" size="small" onClick={() => void query.refetch?.()}>
              {t('common.retry')}
            </Button>
          ) : (
            errorAction
          )
        }
      >
        {errorMessage(query.error)}
      </Alert>
    );
  }
  if (query.data === undefined) return <Skeleton variant="rectangular" height={height} aria-label={t('common.loading')} />;
  if (isEmpty?.(query.data)) return <>{empty ?? null}</>;
  return <>{children(query.data)}</>;
}
