import { CatalogPage } from './CatalogPage.js';
import { CATALOGS } from './catalogs.js';

/** /main/acl_objetos/ */
export default function ModulesPage() {
  return <CatalogPage config={CATALOGS.modules} />;
}
