import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { PARTY_TOKEN } from '../../../../core/api/parties.js';
import { formatDateTime } from '../../../../core/dates.js';
import { sessionQuery, signOut } from '../../app/session/session.js';
import { FactsList, QueryState } from '../../components/page/index.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { useDocumentTitle } from '../public/parts.js';
import { type DeadLink, deadLinkOf, type PartyInvitation, useAcceptInvitation, useInvitation } from './api.js';
import { inLanguage, roleName, roleTitle } from './labels.js';

/**
 * /partes/invitacion/:token (public): the link a party received by email.
 * It says who invites them (programme, the applicant's first name, their
 * role, the case number, until when). Signed out: create an account (the
 * sign-up, filled with the name and email the applicant gave) or sign in,
 * both coming back here. Signed in: Accept, then their page. A used,
 * expired or unknown link says so and what to do.
 */
export default function InvitationPage() {
  const { token = '' } = useParams();
  const wellFormed = PARTY_TOKEN.test(token);
  const [dead, setDead] = useState<DeadLink | null>(null);
  if (!wellFormed) return <DeadLinkView kind="unknown" />;
  if (dead) return <DeadLinkView kind={dead} />;
  return <LiveInvitation token={token} onDead={setDead} />;
}

function LiveInvitation({ token, onDead }: { token: string; onDead: (kind: DeadLink) => void }) {
  const { t } = useTranslation();
  const query = useInvitation(token);
  useDocumentTitle(t('parties.invitation.title'));
  const dead = query.isError ? deadLinkOf(query.error) : null;
  if (dead) return <DeadLinkView kind={dead} />;
  return (
    <Box sx={{ maxWidth: 680, mx: 'auto' }}>
      <QueryState query={query} retry height={320}>
        {(invitation) => <InvitationCard token={token} invitation={invitation} onDead={onDead} />}
      </QueryState>
    </Box>
  );
}

function InvitationCard({ token, invitation, onDead }: { token: string; invitation: PartyInvitation; onDead: (kind: DeadLink) => void }) {
  const { t, i18n } = useTranslation();
  const session = useQuery(sessionQuery);
  const tz = session.data?.user.timeZone;
  const programme = inLanguage(invitation.programme, i18n.resolvedLanguage);
  const role = invitation.role;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', mb: 2 }}>
        <MarkEmailReadOutlined color="primary" sx={{ fontSize: 40, flexShrink: 0 }} aria-hidden />
        <Box sx={{ minWidth: 0 }}>
          <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {invitation.entity.name}
          </Typography>
          <Typography component="h1" variant="h5" sx={{ overflowWrap: 'anywhere' }}>
            {t('parties.invitation.heading', { name: invitation.applicantFirstName || t('parties.invitation.anApplicant') })}
          </Typography>
        </Box>
      </Box>
      <Typography sx={{ mb: 2 }}>
        {t('parties.invitation.intro', {
          applicant: invitation.applicantFirstName || t('parties.invitation.anApplicant'),
          role: roleName(t, role),
          programme,
          entity: invitation.entity.name,
        })}
      </Typography>
      <FactsList
        items={[
          [t('parties.invitation.caseNumber'), invitation.caseNumber ?? '—'],
          [t('parties.invitation.programme'), programme],
          [t('parties.invitation.role'), roleTitle(t, role)],
          [t('parties.invitation.invitedName'), `${invitation.partyName} (${invitation.email})`],
          [t('parties.invitation.until'), formatDateTime(invitation.expiresAt, tz)],
        ]}
      />
      <Box sx={{ mt: 3 }}>
        <InvitationActions token={token} invitation={invitation} onDead={onDead} />
      </Box>
    </Paper>
  );
}

/** What the visitor can do, by who they are: sign up or in, accept, or sign out of another programme's account. */
function InvitationActions({ token, invitation, onDead }: { token: string; invitation: PartyInvitation; onDead: (kind: DeadLink) => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const [problem, setProblem] = useState<string | null>(null);
  const accept = useAcceptInvitation(token, {
    onSuccess: (answer) => navigate(`/partes/${answer.partyId}`),
    onError: (error) => {
      const dead = deadLinkOf(error);
      if (dead === 'used' || dead === 'expired') return onDead(dead);
      // 404 while signed in: the link is another programme's, or not this account's to take.
      setProblem(error instanceof ApiError && error.status === 404 ? t('parties.invitation.notForThisAccount') : errorMessage(error));
    },
  });

  if (session.isPending) {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography>{t('parties.invitation.checkingSession')}</Typography>
      </Box>
    );
  }
  const user = session.data;
  if (!user) return <SignedOutActions invitation={invitation} back={location.pathname} />;
  if (user.user.entity.docnumber !== invitation.entity.docnumber) {
    return (
      <>
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('parties.invitation.otherEntity', { entity: user.user.entity.name, name: invitation.entity.name })}
        </Alert>
        <Button variant="outlined" onClick={() => void signOut(queryClient, 'exit')}>
          {t('parties.invitation.signOut')}
        </Button>
      </>
    );
  }
  const sameEmail = user.user.email.trim().toLowerCase() === invitation.email.trim().toLowerCase();
  return (
    <>
      <Typography sx={{ mb: 1 }}>{t('parties.invitation.signedInAs', { name: user.user.name, email: user.user.email })}</Typography>
      {!sameEmail && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('parties.invitation.otherEmail', { email: invitation.email })}
        </Alert>
      )}
      {problem && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {problem}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" loading={accept.isPending} onClick={() => accept.mutate()}>
          {t('parties.invitation.accept')}
        </Button>
        <Button variant="text" onClick={() => void signOut(queryClient, 'exit')}>
          {t('parties.invitation.signOut')}
        </Button>
      </Box>
    </>
  );
}

/**
 * Signed out: create an account (filled with the name and email the applicant
 * gave) or sign in, both in the case's project and both coming back to `back`.
 */
function SignedOutActions({ invitation, back }: { invitation: PartyInvitation; back: string }) {
  const { t } = useTranslation();
  const projectPath = `/${encodeURIComponent(invitation.project)}`;
  const next = encodeURIComponent(back);
  const prefill = new URLSearchParams({ name: invitation.partyName, email: invitation.email });
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('parties.invitation.signedOut', { email: invitation.email })}</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" component={RouterLink} to={`/user/create-account${projectPath}?next=${next}&${prefill}`}>
          {t('parties.invitation.createAccount')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={`/login${projectPath}?next=${next}`}>
          {t('parties.invitation.signIn')}
        </Button>
      </Box>
    </>
  );
}

/** A link that no longer opens: why, and what to do (ask for a new one, or sign in if it was theirs). */
export function DeadLinkView({ kind }: { kind: DeadLink }) {
  const { t } = useTranslation();
  const session = useQuery(sessionQuery);
  useDocumentTitle(t(`parties.invitation.dead.${kind}.title`));
  return (
    <Box sx={{ maxWidth: 680, mx: 'auto' }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
          <LinkOffOutlined color="warning" sx={{ fontSize: 40, flexShrink: 0 }} aria-hidden />
          <Box sx={{ minWidth: 0 }}>
            <Typography component="h1" variant="h5" gutterBottom>
              {t(`parties.invitation.dead.${kind}.title`)}
            </Typography>
            <Typography sx={{ mb: 2 }}>{t(`parties.invitation.dead.${kind}.text`)}</Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {session.data ? (
                <Button variant="contained" component={RouterLink} to="/partes">
                  {t('parties.mine.title')}
                </Button>
              ) : (
                <Button variant="contained" component={RouterLink} to={`/login?next=${encodeURIComponent('/partes')}`}>
                  {t('parties.invitation.signIn')}
                </Button>
              )}
            </Box>
          </Box>
        </Box>
      </Paper>
    </Box>
  );
}
