import { CatalogPage } from './CatalogPage.js';
import { CATALOGS } from './catalogs.js';

/** /main/acl_roles/ */
export default function RolesPage() {
  return <CatalogPage config={CATALOGS.roles} />;
}
