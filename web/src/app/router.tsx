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
const ServiceAccountsPage = lazyPage(() => import('../features/tokens/ServiceAccountsPage.js'));
const BlockedUsersPage = lazyPage(() => import('../features/users/BlockedUsersPage.js'));
const CommentsDashboardPage = lazyPage(() => import('../features/comments/CommentsDashboardPage.js'));
const TemplatesPage = lazyPage(() => import('../features/templates/TemplatesPage.js'));
const TemplateEditorPage = lazyPage(() => import('../features/templates/TemplateEditorPage.js'));
// Forms and master data.
const FormsListPage = lazyPage(() => import('../features/forms/FormsListPage.js'));
const FormBuilderPage = lazyPage(() => import('../features/forms/builder/FormBuilderPage.js'));
const MastersPage = lazyPage(() => import('../features/masters/MastersPage.js'));
const MasterItemsPage = lazyPage(() => import('../features/masters/MasterItemsPage.js'));
// Protocols, teams and tasks.
const TeamsPage = lazyPage(() => import('../features/teams/TeamsPage.js'));
const TeamMembersPage = lazyPage(() => import('../features/teams/TeamMembersPage.js'));
const ProtocolsPage = lazyPage(() => import('../features/protocols/ProtocolsPage.js'));
const ProtocolEditorPage = lazyPage(() => import('../features/protocols/ProtocolEditorPage.js'));
const ProtocolTasksPage = lazyPage(() => import('../features/protocols/ProtocolTasksPage.js'));
const TasksPage = lazyPage(() => import('../features/tasks/TasksPage.js'));
const TaskPage = lazyPage(() => import('../features/tasks/TaskPage.js'));
const CaseTimelinePage = lazyPage(() => import('../features/tasks/CaseTimelinePage.js'));
const PendingsPage = lazyPage(() => import('../features/tasks/PendingsPage.js'));
const AdminTasksPage = lazyPage(() => import('../features/tasks/AdminTasksPage.js'));
const AdhocTasksPage = lazyPage(() => import('../features/tasks/AdhocTasksPage.js'));
const NewAdhocTaskPage = lazyPage(() => import('../features/tasks/NewAdhocTaskPage.js'));
// Case lists (the router also matches /cases/ to /cases).
const CaseListPage = lazyPage(() => import('../features/cases/list/CaseListPage.js'));
const AdminCasesPage = lazyPage(() => import('../features/cases/list/AdminCasesPage.js'));
const ImportsPage = lazyPage(() => import('../features/cases/imports/ImportsPage.js'));
// New applications, drafts and one case.
const NewCasePage = lazyPage(() => import('../features/cases/case/NewCasePage.js'));
const DraftsPage = lazyPage(() => import('../features/cases/case/DraftsPage.js'));
const CasePage = lazyPage(() => import('../features/cases/case/CasePage.js'));
const CorrectionPage = lazyPage(() => import('../features/cases/case/CorrectionPage.js'));
// Settings.
const ApplicationSettingsPage = lazyPage(() => import('../features/settings/ApplicationSettingsPage.js'));
const CalendarSettings = lazyPage(() => import('../features/settings/CalendarSettings.js'));
const OutboxPage = lazyPage(() => import('../features/mail/OutboxPage.js'));
const WebhooksPage = lazyPage(() => import('../features/webhooks/WebhooksPage.js'));
const PrintTemplatesPage = lazyPage(() => import('../features/printing/PrintTemplatesPage.js'));
const GalleryPage = lazyPage(() => import('../features/gallery/GalleryPage.js'));
const RegisterProjectPage = lazyPage(() => import('../features/gallery/RegisterProjectPage.js'));
const ConfirmProjectPage = lazyPage(() => import('../features/gallery/ConfirmProjectPage.js'));
const PrintTemplateEditorPage = lazyPage(() => import('../features/printing/PrintTemplateEditorPage.js'));
// Reports (ECharts loads later still, with the first chart).
const ReportsPage = lazyPage(() => import('../features/reports/ReportsPage.js'));
const DataTapePage = lazyPage(() => import('../features/datatape/DataTapePage.js'));
// Awards and payments (issue 23): payment batches, the ACH settings, the yearly payee report.
const BatchesPage = lazyPage(() => import('../features/payments/BatchesPage.js'));
const BatchPage = lazyPage(() => import('../features/payments/BatchPage.js'));
const AchSettingsPage = lazyPage(() => import('../features/payments/AchSettingsPage.js'));
const PayeeReportPage = lazyPage(() => import('../features/payments/PayeeReportPage.js'));
// Agencies: registering one (no session) and the platform operator's pages.
const RegisterAgencyPage = lazyPage(() => import('../features/agencies/RegisterAgencyPage.js'));
const ConfirmRegistrationPage = lazyPage(() => import('../features/agencies/ConfirmRegistrationPage.js'));
const AgenciesPage = lazyPage(() => import('../features/agencies/AgenciesPage.js'));
const AgencyEditorPage = lazyPage(() => import('../features/agencies/AgencyEditorPage.js'));
// The public entry (no session).
const PublicEntitiesPage = lazyPage(() => import('../features/public/PublicEntitiesPage.js'));
const PublicEntityPage = lazyPage(() => import('../features/public/PublicEntityPage.js'));
const PublicProgrammePage = lazyPage(() => import('../features/public/PublicProgrammePage.js'));
const LandingPage = lazyPage(() => import('../features/landing/LandingPage.js'));
// The other parties of an application (issue 23): the link they receive, their list and their side of one.
const InvitationPage = lazyPage(() => import('../features/parties/InvitationPage.js'));
const MyPartiesPage = lazyPage(() => import('../features/parties/MyPartiesPage.js'));
const PartyPage = lazyPage(() => import('../features/parties/PartyPage.js'));

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
          { path: '/cases', element: <CaseListPage />, handle: page('menu.cases', 'wf_casos') },
          { path: '/admin-cases', element: <AdminCasesPage />, handle: page('caseList.admin.title', 'admin_cases') },
          // Declared before /cases/:id (react-router ranks static segments first anyway).
          { path: '/cases/new', element: <NewCasePage />, handle: page('caseView.editor.newTitle', 'borradores') },
          { path: '/cases/drafts', element: <DraftsPage />, handle: page('menu.drafts', 'borradores') },
          { path: '/cases/imports', element: <ImportsPage />, handle: page('caseImports.title', 'admin_cases') },
          { path: '/cases/:id', element: <CasePage />, handle: page('caseView.title', 'wf_casos') },
          { path: '/cases/:id/correct', element: <CorrectionPage />, handle: page('caseCorrection.page.title', 'wf_casos') },
          // A party's own pages need a session only: what they may see is theirs alone (the server's 404 otherwise).
          { path: '/partes', element: <MyPartiesPage />, handle: page('parties.mine.title') },
          { path: '/partes/:id', element: <PartyPage />, handle: page('parties.page.pageTitle') },
          { path: '/main/acl_acciones', element: <ActionsPage />, handle: page('menu.aclActions', 'acl_acciones') },
          { path: '/main/acl_objetos', element: <ModulesPage />, handle: page('menu.aclModules', 'acl_objetos') },
          { path: '/main/acl_roles', element: <RolesPage />, handle: page('menu.aclRoles', 'acl_roles') },
          { path: '/main/acl_reglas', element: <RulesPage />, handle: page('menu.aclRules', 'acl_reglas') },
          { path: '/acl/users', element: <UsersPage />, handle: page('menu.aclUsers', 'acl_usuarios') },
          { path: '/acl/service-accounts', element: <ServiceAccountsPage />, handle: page('menu.serviceAccounts', 'acl_usuarios') },
          { path: '/dashboard/comments', element: <CommentsDashboardPage />, handle: page('menu.comments', 'dashboard_comments') },
          { path: '/plantillas-correo', element: <TemplatesPage />, handle: page('templates.title', 'plantillas_correo') },
          { path: '/plantillas-correo/nuevo', element: <TemplateEditorPage />, handle: page('templates.newTitle', 'plantillas_correo') },
          { path: '/plantillas-correo/:id', element: <TemplateEditorPage />, handle: page('templates.editTitle', 'plantillas_correo') },
          {
            path: '/dashboard/blocked-users',
            element: <BlockedUsersPage />,
            handle: page('menu.blockedUsers', 'dashboard_blocked_users'),
          },
          { path: '/formularios', element: <FormsListPage />, handle: page('menu.forms', 'formularios') },
          { path: '/formularios/nuevo', element: <FormBuilderPage />, handle: page('forms.builder.newTitle', 'formularios') },
          { path: '/formularios/:id', element: <FormBuilderPage />, handle: page('forms.builder.title', 'formularios') },
          { path: '/main', element: <MastersPage />, handle: page('menu.masters', 'menu_maestros') },
          { path: '/main/funciones', element: <MasterItemsPage code="funciones" />, handle: page('masters.titles.funciones', 'menu_maestros') },
          { path: '/main/definiciones', element: <MasterItemsPage code="definiciones" />, handle: page('masters.titles.definiciones', 'definiciones') },
          { path: '/main/departamentos', element: <MasterItemsPage code="departamentos" />, handle: page('masters.titles.departamentos', 'departamentos') },
          { path: '/main/municipios', element: <MasterItemsPage code="municipios" />, handle: page('masters.titles.municipios', 'municipios') },
          { path: '/main/:id', element: <MasterItemsPage />, handle: page('menu.masters', 'menu_maestros') },
          { path: '/equipos', element: <TeamsPage />, handle: page('menu.teams', 'wf_equipos') },
          { path: '/integrantes-equipos', element: <TeamMembersPage />, handle: page('menu.teamMembers', 'wf_equipos_integrantes') },
          { path: '/protocolos', element: <ProtocolsPage />, handle: page('menu.protocols', 'wf_protocolos') },
          { path: '/protocolos/tareas', element: <ProtocolTasksPage />, handle: page('protocols.tasksTitle', 'wf_protocolos') },
          { path: '/protocolos/nuevo', element: <ProtocolEditorPage />, handle: page('protocols.editor.newTitle', 'wf_protocolos') },
          { path: '/protocolos/:id', element: <ProtocolEditorPage />, handle: page('protocols.editor.title', 'wf_protocolos') },
          { path: '/tasks', element: <TasksPage />, handle: page('menu.tasks', 'wf_tareas') },
          { path: '/tasks/case/:caseId', element: <CaseTimelinePage />, handle: page('tasks.timeline.pageTitle', 'wf_tareas') },
          { path: '/tasks/:id', element: <TaskPage />, handle: page('tasks.taskTitle', 'wf_tareas') },
          { path: '/tareas', element: <AdhocTasksPage />, handle: page('adhocTasks.title', 'wf_tareas') },
          { path: '/tareas/nuevo', element: <NewAdhocTaskPage />, handle: page('adhocTasks.newTitle', 'wf_tareas') },
          { path: '/pendings', element: <PendingsPage />, handle: page('menu.pendings', 'menutareas') },
          { path: '/admin-tasks', element: <AdminTasksPage />, handle: page('tasks.admin.title', 'admintasks') },
          { path: '/reportes', element: <ReportsPage />, handle: page('menu.reports', 'menuReportes') },
          { path: '/reportes/data-tape', element: <DataTapePage />, handle: page('dataTape.title', 'reporte_data_tape') },
          { path: '/reportes/beneficiarios', element: <PayeeReportPage />, handle: page('payments.report.title', 'reporte_beneficiarios') },
          { path: '/pagos', element: <BatchesPage />, handle: page('payments.batches.title', 'pagos') },
          { path: '/pagos/:id', element: <BatchPage />, handle: page('payments.batch.title', 'pagos') },
          { path: '/configuracion/pagos', element: <AchSettingsPage />, handle: page('payments.ach.title', 'pagos') },
          { path: '/configuracion', element: <ApplicationSettingsPage />, handle: page('appSettings.title', 'menu_configuracion') },
          { path: '/configuracion/calendario', element: <CalendarSettings />, handle: page('settings.calendar.title', 'menu_configuracion') },
          { path: '/configuracion/webhooks', element: <WebhooksPage />, handle: page('webhooks.title', 'menu_configuracion') },
          { path: '/configuracion/correos', element: <OutboxPage />, handle: page('outbox.title', 'reenviarcorreos') },
          // The platform operator's (RequireOperator in the pages: no tenant target grants them).
          { path: '/crear-entidad', element: <AgenciesPage />, handle: page('agencies.list.title') },
          { path: '/crear-entidad/:id', element: <AgencyEditorPage />, handle: page('agencies.editor.editTitle') },
          { path: '/configuracion/plantillas', element: <PrintTemplatesPage />, handle: page('printing.title', 'menu_configuracion') },
          { path: '/configuracion/plantillas/:id', element: <PrintTemplateEditorPage />, handle: page('printing.editTitle', 'menu_configuracion') },
          { path: '/vainilla-apps', element: <GalleryPage />, handle: page('gallery.title', 'menu_configuracion') },
          { path: '/vainilla/registrar-proyecto', element: <RegisterProjectPage />, handle: page('gallery.register.title', 'menu_configuracion') },
          { path: '/vainilla/confirmar-proyecto/:id?', element: <ConfirmProjectPage />, handle: page('gallery.confirm.title', 'menu_configuracion') },
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
          { path: '/user/create-account/:id', element: <SignUpPage />, handle: projectPage('signup.title') },
          { path: '/user/recovery-password', element: <RecoveryPage />, handle: page('recovery.title') },
          { path: '/change-password/:token?', element: <ChangePasswordPage />, handle: page('passwordReset.title') },
          { path: '/registro-entidad', element: <RegisterAgencyPage />, handle: page('agencies.register.title') },
          { path: '/registro-entidad-premium', element: <RegisterAgencyPage plan="premium" />, handle: page('agencies.register.premiumTitle') },
          { path: '/registro-entidad/confirmar/:token', element: <ConfirmRegistrationPage />, handle: page('agencies.confirm.title') },
          { path: '/publico', element: <PublicEntitiesPage />, handle: page('public.title') },
          { path: '/publico/:entity', element: <PublicEntityPage />, handle: page('public.entityTitle') },
          { path: '/publico/:entity/:code', element: <PublicProgrammePage />, handle: page('public.programmeTitle') },
          { path: '/landing/:docnumber/:name/:code', element: <LandingPage />, handle: page('landing.untitled') },
          { path: '/partes/invitacion/:token', element: <InvitationPage />, handle: page('parties.invitation.title') },
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
