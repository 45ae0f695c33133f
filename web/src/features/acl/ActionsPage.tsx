import { CatalogPage } from './CatalogPage.js';
import { CATALOGS } from './catalogs.js';

/** /main/acl_acciones/ */
export default function ActionsPage() {
  return <CatalogPage config={CATALOGS.actions} />;
}
