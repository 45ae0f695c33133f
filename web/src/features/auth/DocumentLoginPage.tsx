import { useTranslation } from 'react-i18next';
import { SignInForm } from './LoginPage.js';

/** /login2 and /login2/{id}: sign in by document number and password, within the project. */
export default function DocumentLoginPage() {
  const { t } = useTranslation();
  return <SignInForm by="docnumber" title={t('login.documentTitle')} other={{ to: '/login', label: t('login.withEmail') }} />;
}
