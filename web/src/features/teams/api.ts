import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { TEAM_ASSIGNMENTS, TEAM_MEMBER_ROLES, type teamMemberSchema, type teamSchema, type teamUserOptionSchema } from '../../../../core/api/teams.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListPage, type ListParams, useListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';

/** How a team hands out the tasks a protocol gives it. */
export const ASSIGNMENTS = TEAM_ASSIGNMENTS;
export type Assignment = (typeof ASSIGNMENTS)[number];

export const MEMBER_ROLES = TEAM_MEMBER_ROLES;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** One team as GET /api/teams answers it: `members` counts the active ones, `openTasks` those unassigned, pending or blocked. */
export type TeamItem = Wire<z.infer<typeof teamSchema>>;

/** One membership as GET /api/team-members answers it. */
export type TeamMemberItem = Wire<z.infer<typeof teamMemberSchema>>;

/** An active user of the tenant (GET /api/team-members/user-options). */
export type UserOption = Wire<z.infer<typeof teamUserOptionSchema>>;

const TEAMS_PATH = '/api/teams';
const MEMBERS_PATH = '/api/team-members';
const USER_OPTIONS_PATH = '/api/team-members/user-options';

/** Teams and memberships refresh together (a member count changes with the members); the user options stand apart. */
export const teamKeys = {
  all: ['teams'] as const,
  teams: () => [...teamKeys.all, 'team'] as const,
  lists: () => [...teamKeys.teams(), 'list'] as const,
  options: () => [...teamKeys.teams(), 'options'] as const,
  members: () => [...teamKeys.all, 'member'] as const,
  memberLists: () => [...teamKeys.members(), 'list'] as const,
  userOptions: (search: string) => [...teamKeys.all, 'user-options', search] as const,
};

/** Every list that shows teams or members (a member count changes with the members). */
export function useInvalidateTeams() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamKeys.teams() }),
      queryClient.invalidateQueries({ queryKey: teamKeys.members() }),
    ]);
}

export function useTeamList(params: ListParams) {
  return useListPage<TeamItem>(teamKeys.lists(), TEAMS_PATH, params);
}

export function useTeamMemberList(params: ListParams, filter: { teamId?: string }) {
  return useListPage<TeamMemberItem>(teamKeys.memberLists(), MEMBERS_PATH, params, filter);
}

/**
 * The tenant's teams for pickers (first 100 by name). Users without the teams
 * target get an error, which callers treat as "no list": the query is silent.
 */
export function useTeamOptions(enabled = true) {
  return useQuery({
    queryKey: teamKeys.options(),
    queryFn: ({ signal }) => apiFetch<ListPage<TeamItem>>(`${TEAMS_PATH}?limit=100&sortBy=name`, { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}

/**
 * Active users of the tenant matching `search` (name or email). Someone who
 * may not list users gets an error: the query is silent and the picker asks
 * for a user number instead.
 */
export function useUserOptions(search: string) {
  return useQuery({
    queryKey: teamKeys.userOptions(search),
    queryFn: ({ signal }) =>
      apiFetch<UserOption[]>(`${USER_OPTIONS_PATH}${search.trim() ? `?search=${encodeURIComponent(search.trim())}` : ''}`, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
    meta: { silentError: true },
  });
}

export interface TeamBody {
  name: string;
  description: string;
  assignment: Assignment;
  active: boolean;
}

/** Creates a team, or updates `team`. Errors are the caller's to show (field errors). */
export function useSaveTeam(team: TeamItem | null, callbacks: MutationCallbacks<TeamItem, TeamBody> = {}) {
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (values: TeamBody) =>
      team ? apiFetch<TeamItem>(`${TEAMS_PATH}/${team.id}`, { method: 'PUT', json: values }) : apiFetch<TeamItem>(TEAMS_PATH, { method: 'POST', json: values }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useDeleteTeam(callbacks: MutationCallbacks<void, TeamItem> = {}) {
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (team: TeamItem) => apiFetch<void>(`${TEAMS_PATH}/${team.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

/** A new membership names its team and user; an existing one changes only its role and state. */
export interface MemberBody {
  teamId?: number;
  userId?: number;
  role: MemberRole;
  active: boolean;
}

/** Adds a member, or updates `member`. Errors are the caller's to show. */
export function useSaveMember(member: TeamMemberItem | null, callbacks: MutationCallbacks<TeamMemberItem, MemberBody> = {}) {
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (body: MemberBody) =>
      member
        ? apiFetch<TeamMemberItem>(`${MEMBERS_PATH}/${member.id}`, { method: 'PUT', json: body })
        : apiFetch<TeamMemberItem>(MEMBERS_PATH, { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}

export function useRemoveMember(callbacks: MutationCallbacks<void, TeamMemberItem> = {}) {
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (member: TeamMemberItem) => apiFetch<void>(`${MEMBERS_PATH}/${member.id}`, { method: 'DELETE' }),
    onSuccess: refreshAfter(callbacks, () => invalidate()),
    onError: callbacks.onError,
  });
}
