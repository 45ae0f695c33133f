import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from '../features/errors/NotFoundPage.js';
import { HomePage } from '../features/home/HomePage.js';
import type { PageHandle } from './layouts/AppFooter.js';
import { BlankLayout } from './layouts/BlankLayout.js';
import { DefaultLayout } from './layouts/DefaultLayout.js';
import { PublicLayout } from './layouts/PublicLayout.js';
import { RouteErrorPage } from './RouteErrorPage.js';

const page = (titleKey: string): PageHandle => ({ titleKey });

/**
 * Every page of the app. The side menu links only to paths declared here;
 * pages other than home and 404 load lazily, through lazyPage() (lib/lazyPage.ts).
 */
export const appRoutes: RouteObject[] = [
  {
    element: <BlankLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <Navigate to="/home" replace /> },
      {
        element: <DefaultLayout />,
        children: [{ path: '/home', element: <HomePage />, handle: page('home.title') }],
      },
      {
        element: <PublicLayout />,
        children: [
          { path: '/404', element: <NotFoundPage />, handle: page('notFound.title') },
          { path: '*', element: <NotFoundPage />, handle: page('notFound.title') },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
