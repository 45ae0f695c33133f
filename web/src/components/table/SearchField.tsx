import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const DEBOUNCE_MS = 300;

interface SearchFieldProps {
  onSearch: (text: string) => void;
  label?: string;
  /** The text to start with (a search restored from the address). */
  defaultValue?: string;
}

/** A search box that asks the server once the user pauses typing. */
export function SearchField({ onSearch, label, defaultValue = '' }: SearchFieldProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(defaultValue);
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <TextField
      type="search"
      size="small"
      label={label ?? t('dataTable.search')}
      value={text}
      onChange={(event) => setText(event.target.value)}
      sx={{ width: { xs: '100%', sm: 280 } }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" aria-hidden />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
