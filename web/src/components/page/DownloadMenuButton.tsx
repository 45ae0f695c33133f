import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';

interface DownloadMenuButtonProps<V extends string> {
  label: string;
  /** The formats to choose from, in the menu's order. */
  formats: ReadonlyArray<{ value: V; label: string }>;
  onChoose: (format: V) => void;
  /** A download under way: the button shows it where its icon was. Left out, the button has no such state. */
  loading?: boolean;
}

/** A download button that opens a menu of formats (a menu button: aria-haspopup, aria-expanded, the menu labelled by it). */
export function DownloadMenuButton<V extends string>({ label, formats, onChoose, loading }: DownloadMenuButtonProps<V>) {
  const menuId = useId();
  const buttonId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (format: V) => {
    setAnchor(null);
    onChoose(format);
  };
  return (
    <>
      <Button
        id={buttonId}
        variant="outlined"
        startIcon={<FileDownloadOutlined />}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        aria-controls={anchor ? menuId : undefined}
        {...(loading === undefined ? {} : { loading, loadingPosition: 'start' as const })}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {label}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-labelledby': buttonId } }}>
        {formats.map((format) => (
          <MenuItem key={format.value} onClick={() => choose(format.value)}>
            {format.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
