import Typography from '@mui/material/Typography';
import { useFieldText } from '../../labels.js';
import type { FieldRendererProps } from '../../registry.js';

/** Text shown in the form (a declaration, an instruction); it holds no value. */
export function StaticWidget({ field }: FieldRendererProps) {
  const text = useFieldText();
  const help = text.help(field);
  return (
    <>
      <Typography sx={{ my: 1.5, whiteSpace: 'pre-line' }}>{text.label(field)}</Typography>
      {help && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: -1, mb: 1.5 }}>
          {help}
        </Typography>
      )}
    </>
  );
}
