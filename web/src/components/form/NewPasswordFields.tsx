import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../../core/auth.js';
import { FormPasswordField } from './FormTextField.js';

interface NewPasswordFieldsProps<T extends FieldValues> {
  /** A form whose values hold `password` and `passwordConfirm`. */
  control: Control<T>;
  /** The first field's label ("Password", "New password"). */
  label: string;
  autoFocus?: boolean;
}

/** A new password, with what a password may be under it, then the same again to confirm it. */
export function NewPasswordFields<T extends FieldValues & { password: string; passwordConfirm: string }>({ control, label, autoFocus }: NewPasswordFieldsProps<T>) {
  const { t } = useTranslation();
  return (
    <>
      <FormPasswordField
        control={control}
        name={'password' as Path<T>}
        label={label}
        autoComplete="new-password"
        helperText={t('signup.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        required
        autoFocus={autoFocus}
      />
      <FormPasswordField control={control} name={'passwordConfirm' as Path<T>} label={t('signup.passwordConfirm')} autoComplete="new-password" required />
    </>
  );
}
