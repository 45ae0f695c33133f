import { zodResolver } from '@hookform/resolvers/zod';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { emailSchema, isTimeZone, PASSWORD_MAX, PASSWORD_MIN, passwordSchema } from '../../../../core/auth.js';
import { DEFAULT_TIME_ZONE } from '../../../../core/project.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog } from '../../components/page/FormDialog.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormPasswordField, FormTextField } from '../../components/form/FormTextField.js';
import { TimeZoneField } from '../../components/form/TimeZoneField.js';
import { LANGUAGES } from '../../i18n/index.js';
import { showServerError } from '../../lib/forms.js';
import { type UserBody, type UserItem, useRoleOptions, useSaveUser } from './api.js';

/** The server's rules for a user (server/modules/users/routes.ts), with the shared email and password rules. */
const userSchema = z
  .object({
    email: emailSchema,
    name: z.string().trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
    docnumber: z.string().trim().max(40, { error: 'validation.tooLong' }),
    roleId: z.string().min(1, { error: 'validation.chooseOption' }),
    active: z.boolean(),
    language: z.enum(LANGUAGES, { error: 'validation.chooseOption' }),
    timeZone: z.string().refine(isTimeZone, { error: 'validation.chooseOption' }),
    /** New users only: email a link to choose a password, or set one now. */
    passwordMode: z.enum(['link', 'set']),
    password: z.string(),
  })
  .superRefine((values, ctx) => {
    if (values.passwordMode !== 'set') return;
    const checked = passwordSchema.safeParse(values.password);
    if (!checked.success) ctx.addIssue({ code: 'custom', path: ['password'], message: checked.error.issues[0]?.message ?? 'auth.passwordRule' });
  });
type UserValues = z.input<typeof userSchema>;
type UserOutput = z.output<typeof userSchema>;
const FIELDS = ['email', 'name', 'docnumber', 'roleId', 'language', 'timeZone', 'password'] as const;

interface UserDialogProps {
  /** The user to edit, or null to create one. */
  user: UserItem | null;
  onClose: () => void;
}

/** Create or edit a user: role, active, language, time zone; a new user gets a password or a link to choose one. */
export function UserDialog({ user, onClose }: UserDialogProps) {
  const { t } = useTranslation();
  const passwordLabelId = useId();
  const roles = useRoleOptions();
  const { control, handleSubmit, setError } = useForm<UserValues, unknown, UserOutput>({
    resolver: zodResolver(userSchema),
    defaultValues: {
      email: user?.email ?? '',
      name: user?.name ?? '',
      docnumber: user?.docnumber ?? '',
      roleId: user ? String(user.roleId) : '',
      active: user?.active ?? true,
      language: user?.language ?? 'en',
      timeZone: user?.timeZone ?? DEFAULT_TIME_ZONE,
      passwordMode: 'link',
      password: '',
    },
  });
  const passwordMode = useWatch({ control, name: 'passwordMode' });

  const save = useSaveUser(user, {
    onSuccess: (saved, body) => {
      // A new user without a password now was emailed a link to choose one.
      const linkSent = !user && body.password === undefined;
      showToast(linkSent ? t('userAdmin.createdWithLink', { email: saved.email }) : t('common.saved'), 'success');
    },
    onRefreshed: onClose,
    onError: (error) => showServerError(error, setError, FIELDS, { byCode: { EMAIL_TAKEN: 'email', DOCUMENT_TAKEN: 'docnumber' } }),
  });
  const submit = (values: UserOutput) => {
    const body: UserBody = {
      email: values.email,
      name: values.name,
      docnumber: values.docnumber || null,
      roleId: Number(values.roleId),
      active: values.active,
      language: values.language,
      timeZone: values.timeZone,
    };
    save.mutate(!user && values.passwordMode === 'set' ? { ...body, password: values.password } : body);
  };

  const roleOptions = (roles.data ?? []).map((role) => ({ value: String(role.id), label: role.name }));
  // Editing a user whose role this admin may not hand out (super-admin): keep it listed.
  if (user && !roleOptions.some((option) => option.value === String(user.roleId))) {
    roleOptions.push({ value: String(user.roleId), label: user.roleName });
  }
  // What the server lets the caller change on this user (users/policy.ts): nobody changes their own role or deactivates themselves.
  const roleLocked = !!user && !user.actions.includes('changeRole');
  const activeLocked = !!user && user.active && !user.actions.includes('deactivate');
  const languageOptions = LANGUAGES.map((language) => ({ value: language, label: t(`common.languages.${language}`) }));

  return (
    <FormDialog title={t(user ? 'userAdmin.edit' : 'userAdmin.new')} onClose={onClose} onSubmit={handleSubmit(submit)} pending={save.isPending}>
      <FormTextField control={control} name="name" label={t('userAdmin.name')} required autoFocus />
      <FormTextField control={control} name="email" label={t('login.email')} type="email" required />
      <FormTextField control={control} name="docnumber" label={t('login.docnumber')} />
      <FormSelectField
        control={control}
        name="roleId"
        label={t('userAdmin.role')}
        options={roleOptions}
        required
        disabled={!roles.data || roleLocked}
      />
      <Controller
        control={control}
        name="active"
        render={({ field }) => (
          <FormControlLabel
            sx={{ mt: 1 }}
            control={
              <Switch
                checked={field.value}
                onChange={(event) => field.onChange(event.target.checked)}
                disabled={activeLocked}
                slotProps={{ input: { ref: field.ref } }}
              />
            }
            label={t('userAdmin.active')}
          />
        )}
      />
      <FormSelectField control={control} name="language" label={t('common.language')} options={languageOptions} />
      <TimeZoneField control={control} name="timeZone" label={t('profile.timeZone')} />
      {!user && (
        <>
          <Controller
            control={control}
            name="passwordMode"
            render={({ field }) => (
              <FormControl sx={{ mt: 2 }}>
                <FormLabel id={passwordLabelId}>{t('login.password')}</FormLabel>
                <RadioGroup
                  aria-labelledby={passwordLabelId}
                  value={field.value}
                  onChange={(event) => field.onChange(event.target.value)}
                >
                  <FormControlLabel value="link" control={<Radio />} label={t('userAdmin.sendLink')} />
                  <FormControlLabel value="set" control={<Radio />} label={t('userAdmin.setPassword')} />
                </RadioGroup>
              </FormControl>
            )}
          />
          {passwordMode === 'set' && (
            <FormPasswordField
              control={control}
              name="password"
              label={t('login.password')}
              autoComplete="new-password"
              helperText={t('signup.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
              required
            />
          )}
        </>
      )}
    </FormDialog>
  );
}
