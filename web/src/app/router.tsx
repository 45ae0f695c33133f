import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import type { Target } from '../../../core/targets.js';
import { LoginPage } from '../features/auth/LoginPage.js';
import { NotFoundPage } from '../features/errors/NotFoundPage.js';
import { lazyPage } from '../lib/lazyPage.js';
import { BlankLayout } from './layouts/BlankLayout.js';
import { DefaultLayout } from './layouts/DefaultLayout.js';
import { PublicLayout } from './layouts/PublicLayout.js';
import { RouteErrorPage } from './RouteErrorPage.js';
import type { PageHandle } from './routeHandle.js';

const page = (titleKey: string, target?: Target): PageHandle => (target ? { titleKey, target } : { titleKey });
const projectPage = (titleKey: string): PageHandle => ({ titleKey, projectFromPath: true });

const HomePage = lazyPage(() => import('../features/home/HomePage.js'));
const DocumentLoginPage = lazyPage(() => import('../features/auth/DocumentLoginPage.js'));
const SignUpPage = lazyPage(() => import('../features/auth/SignUpPage.js'));
const RecoveryPage = lazyPage(() => import('../features/auth/RecoveryPage.js'));
const ChangePasswordPage = lazyPage(() => import('../features/auth/ChangePasswordPage.js'));
const ProfilePage = lazyPage(() => import('../features/profile/ProfilePage.js'));
const ActionsPage = lazyPage(() => import('../features/acl/ActionsPage.js'));
const ModulesPage = lazyPage(() => import('../features/acl/ModulesPage.js'));
const RolesPage = lazyPage(() => import('../features/acl/RolesPage.js'));
const RulesPage = lazyPage(() => import('../features/acl/RulesPage.js'));
const UsersPage = lazyPage(() => import('../features/users/UsersPage.js'));
const BlockedUsersPage = lazyPage(() => import('../features/users/BlockedUsersPage.js'));

/**
 * Every page of the app. The side menu links only to paths declared here.
 * Pages of the default layout need a session, and a route with a `target`
 * in its handle needs that permission target too. Every page but sign-in and
 * 404 loads lazily through lazyPage() (lib/lazyPage.ts), and so does the
 * signed-in frame (layouts/DefaultLayout.tsx): the first bundle is what a
 * visitor to /login needs.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <BlankLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <Navigate to="/home" replace /> },
      {
        element: <DefaultLayout />,
        children: [
          { path: '/home', element: <HomePage />, handle: page('home.title') },
          { path: '/profile', element: <ProfilePage />, handle: page('profile.title') },
          { path: '/main/acl_acciones', element: <ActionsPage />, handle: page('menu.aclActions', 'acl_acciones') },
          { path: '/main/acl_objetos', element: <ModulesPage />, handle: page('menu.aclModules', 'acl_objetos') },
          { path: '/main/acl_roles', element: <RolesPage />, handle: page('menu.aclRoles', 'acl_roles') },
          { path: '/main/acl_reglas', element: <RulesPage />, handle: page('menu.aclRules', 'acl_reglas') },
          { path: '/acl/users', element: <UsersPage />, handle: page('menu.aclUsers', 'acl_usuarios') },
          {
            path: '/dashboard/blocked-users',
            element: <BlockedUsersPage />,
            handle: page('menu.blockedUsers', 'dashboard_blocked_users'),
          },
        ],
      },
      {
        element: <PublicLayout />,
        children: [
          { path: '/login', element: <LoginPage />, handle: page('login.title') },
          { path: '/login/:id', element: <LoginPage />, handle: projectPage('login.title') },
          { path: '/login2', element: <DocumentLoginPage />, handle: page('login.documentTitle') },
          { path: '/login2/:id', element: <DocumentLoginPage />, handle: projectPage('login.documentTitle') },
          { path: '/user/create-account', element: <SignUpPage />, handle: page('signup.title') },
          { path: '/user/recovery-password', element: <RecoveryPage />, handle: page('recovery.title') },
          { path: '/change-password/:token?', element: <ChangePasswordPage />, handle: page('passwordReset.title') },
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
