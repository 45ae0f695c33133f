import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import { useEffect, useId, useRef, useState } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/feedback/toastStore.js';
import { fieldErrorText } from '../../lib/forms.js';
import { loadAltcha } from './altcha.js';

interface CaptchaFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
}

/**
 * A solution is good once: after the server refused or spent it, `renew`
 * empties the form's value (`clear`) and a new widget, keyed by `round`,
 * fetches a new challenge.
 */
export function useCaptchaRound(clear: () => void) {
  const [round, setRound] = useState(0);
  const renew = () => {
    clear();
    setRound((current) => current + 1);
  };
  return { round, renew };
}

interface StateChange {
  state: string;
  payload?: string;
}

/** The ALTCHA proof-of-work check; its payload becomes the form field once it is verified. */
export function CaptchaField<T extends FieldValues>({ control, name }: CaptchaFieldProps<T>) {
  const { t, i18n } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const widget = useRef<HTMLElement>(null);
  const errorId = useId();
  const { onChange } = field;

  useEffect(() => {
    loadAltcha().catch(() => showToast(t('sms.network')));
  }, [t]);

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<StateChange>).detail;
      onChange(detail.state === 'verified' && detail.payload ? detail.payload : '');
    };
    element.addEventListener('statechange', listener);
    return () => element.removeEventListener('statechange', listener);
  }, [onChange]);

  const message = fieldErrorText(t, fieldState.error);
  return (
    <Box
      data-testid="captcha"
      sx={(theme) => ({
        my: 2,
        // The widget's own colours use light-dark() and oklch(), which not every browser resolves
        // (the checkbox then has no border at all): give it the page's colours instead.
        '--altcha-color-base': theme.palette.background.paper,
        '--altcha-color-base-content': theme.palette.text.primary,
        '--altcha-color-neutral': theme.palette.action.disabled,
        '--altcha-color-neutral-content': theme.palette.text.secondary,
        '--altcha-border-color': message ? theme.palette.error.main : 'rgba(0, 0, 0, 0.23)',
        '--altcha-checkbox-border-color': theme.palette.text.secondary,
        '--altcha-checkbox-border-width': '2px',
        '--altcha-color-primary': theme.palette.primary.main,
        '--altcha-color-success': theme.palette.success.main,
        '--altcha-color-error': theme.palette.error.main,
        '--altcha-border-radius': `${theme.shape.borderRadius}px`,
        '--altcha-max-width': '100%',
      })}
    >
      <altcha-widget
        ref={widget}
        challenge="/api/auth/captcha"
        name="altcha"
        language={i18n.resolvedLanguage === 'es' ? 'es-es' : 'en'}
        aria-describedby={message ? errorId : undefined}
      />
      {message && (
        <FormHelperText error id={errorId} role="alert">
          {message}
        </FormHelperText>
      )}
    </Box>
  );
}
