import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The app's 404 page; `back` changes where its button leads (the public pages lead back to the public list). */
export function NotFoundPage({ back = { to: '/home', label: 'notFound.backHome' } }: { back?: { to: string; label: string } }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', mt: { xs: 4, md: 8 }, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('notFound.title')}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t('notFound.text')}</Typography>
      <Button variant="contained" component={Link} to={back.to}>
        {t(back.label)}
      </Button>
    </Box>
  );
}
