import Typography from '@mui/material/Typography';

/** Why a list could not load, under the table; nothing when it loaded. */
export function ListError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <Typography color="error" role="alert" sx={{ mt: 1 }}>
      {error.message}
    </Typography>
  );
}
