import DataObjectOutlined from '@mui/icons-material/DataObjectOutlined';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PLACEHOLDERS, type PlaceholderName } from '../../../../core/templates/render.js';

/** The placeholder picker: a menu of the catalogue, each by its label and its `{{name}}`; the caller inserts it at the cursor. */
export function PlaceholderMenu({ onPick, label }: { onPick: (name: PlaceholderName) => void; label?: string }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  return (
    <>
      <Button
        size="small"
        startIcon={<DataObjectOutlined />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? id : undefined}
        // Keep the editor's selection: the button must not take the focus on press.
        onMouseDown={(event) => event.preventDefault()}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {label ?? t('templates.insertPlaceholder')}
      </Button>
      <Menu id={id} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {PLACEHOLDERS.map((name) => (
          <MenuItem
            key={name}
            onClick={() => {
              setAnchor(null);
              onPick(name);
            }}
          >
            <ListItemText primary={t(`templates.placeholders.${name}`)} secondary={`{{${name}}}`} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
