import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Granted, RoleRules } from './api.js';
import { actionLabel, moduleLabel } from './names.js';

interface RulesMatrixProps {
  rules: RoleRules;
  canUpdate: boolean;
  saving: boolean;
  onSave: (granted: Granted) => void;
}

const toSets = (granted: Granted) => new Map(Object.entries(granted).map(([module, actions]) => [module, new Set(actions)]));

/** What a PUT sends: every module with at least one action, actions in catalogue order. */
export function grantedPayload(checked: ReadonlyMap<string, ReadonlySet<string>>, actionOrder: readonly string[]): Granted {
  const out: Granted = {};
  for (const [module, actions] of checked) {
    if (actions.size > 0) out[module] = actionOrder.filter((a) => actions.has(a));
  }
  return out;
}

/**
 * The module x action grid of one role. Each box is a native checkbox named
 * "<module>: <action>", reached with Tab and toggled with Space. The grid
 * scrolls inside its own box, with the header row and module column fixed.
 */
export function RulesMatrix({ rules, canUpdate, saving, onSave }: RulesMatrixProps) {
  const { t, i18n } = useTranslation();
  const [checked, setChecked] = useState(() => toSets(rules.granted));
  const actionOrder = useMemo(() => rules.actions.map((a) => a.code), [rules.actions]);
  const superAdmin = rules.role.superAdmin;
  const readOnly = superAdmin || !canUpdate;
  const initial = useMemo(() => JSON.stringify(grantedPayload(toSets(rules.granted), actionOrder)), [rules.granted, actionOrder]);
  const payload = grantedPayload(checked, actionOrder);
  // Rows in the order people read their names, not by code.
  const language = i18n.resolvedLanguage;
  const modules = useMemo(
    () =>
      rules.modules
        .map((module) => ({ ...module, label: moduleLabel(t, module) }))
        .sort((a, b) => a.label.localeCompare(b.label, language)),
    [rules.modules, t, language],
  );
  const dirty = JSON.stringify(payload) !== initial;

  const has = (module: string, action: string) => superAdmin || (checked.get(module)?.has(action) ?? false);
  const toggle = (module: string, action: string, on: boolean) =>
    setChecked((current) => {
      const next = new Map(current);
      const actions = new Set(next.get(module));
      if (on) actions.add(action);
      else actions.delete(action);
      next.set(module, actions);
      return next;
    });
  const toggleRow = (module: string, on: boolean) =>
    setChecked((current) => new Map(current).set(module, new Set(on ? actionOrder : [])));

  return (
    <Box>
      {superAdmin && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('rules.superAdmin')}
        </Alert>
      )}
      <TableContainer
        sx={{ maxHeight: { xs: '60vh', md: '65vh' }, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
        tabIndex={0}
        role="region"
        aria-label={t('rules.matrixLabel', { role: rules.role.name })}
      >
        <Table size="small" stickyHeader aria-label={t('rules.matrixLabel', { role: rules.role.name })}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ position: 'sticky', left: 0, zIndex: 3, bgcolor: 'background.paper', minWidth: { xs: 130, sm: 180 } }}>
                {t('rules.module')}
              </TableCell>
              {!readOnly && <TableCell align="center">{t('rules.all')}</TableCell>}
              {rules.actions.map((action) => (
                <TableCell key={action.code} align="center" sx={{ whiteSpace: 'nowrap', px: 1 }}>
                  {actionLabel(t, action)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {modules.map((module) => {
              const label = module.label;
              const count = checked.get(module.code)?.size ?? 0;
              return (
                <TableRow key={module.code} hover>
                  <TableCell
                    component="th"
                    scope="row"
                    sx={{ position: 'sticky', left: 0, zIndex: 1, bgcolor: 'background.paper', minWidth: { xs: 130, sm: 180 } }}
                  >
                    <Typography variant="body2">{label}</Typography>
                    {label !== module.code && (
                      <Typography variant="caption" color="text.secondary" component="code" sx={{ overflowWrap: 'anywhere' }}>
                        {module.code}
                      </Typography>
                    )}
                  </TableCell>
                  {!readOnly && (
                    <TableCell align="center" padding="checkbox">
                      <Checkbox
                        size="small"
                        checked={count === actionOrder.length && count > 0}
                        indeterminate={count > 0 && count < actionOrder.length}
                        onChange={(event) => toggleRow(module.code, event.target.checked)}
                        slotProps={{ input: { 'aria-label': t('rules.allFor', { module: label }) } }}
                      />
                    </TableCell>
                  )}
                  {rules.actions.map((action) => (
                    <TableCell key={action.code} align="center" padding="checkbox">
                      <Checkbox
                        size="small"
                        checked={has(module.code, action.code)}
                        disabled={readOnly}
                        onChange={(event) => toggle(module.code, action.code, event.target.checked)}
                        slotProps={{ input: { 'aria-label': `${label}: ${actionLabel(t, action)}` } }}
                      />
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {!readOnly && (
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 2, mt: 2, flexWrap: 'wrap' }}>
          {dirty && (
            <Typography variant="body2" color="text.secondary" role="status">
              {t('rules.unsaved')}
            </Typography>
          )}
          <Button variant="outlined" disabled={!dirty || saving} onClick={() => setChecked(toSets(rules.granted))}>
            {t('rules.discard')}
          </Button>
          <Button variant="contained" disabled={!dirty} loading={saving} onClick={() => onSave(payload)}>
            {t('common.save')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
