import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.js';
import type { ListPage } from '../../components/table/listParams.js';

/** How a team hands out the tasks a protocol gives it. */
export const ASSIGNMENTS = ['round_robin', 'least_loaded'] as const;
export type Assignment = (typeof ASSIGNMENTS)[number];

/** One team as GET /api/teams answers it. */
export interface TeamItem {
  id: number;
  name: string;
  description: string;
  assignment: Assignment;
  active: boolean;
  /** Active members. */
  members: number;
  /** Unassigned, pending and blocked tasks held by the team. */
  openTasks: number;
}

export const MEMBER_ROLES = ['leader', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** One membership as GET /api/team-members answers it. */
export interface TeamMemberItem {
  id: number;
  teamId: number;
  teamName: string;
  userId: number;
  userName: string;
  userEmail: string;
  role: MemberRole;
  active: boolean;
}

/** An active user of the tenant (GET /api/team-members/user-options). */
export interface UserOption {
  id: number;
  name: string;
  email: string;
}

export const TEAMS_PATH = '/api/teams';
export const MEMBERS_PATH = '/api/team-members';
export const USER_OPTIONS_PATH = '/api/team-members/user-options';

/** Every list that shows teams or members (a member count changes with the members). */
export function useInvalidateTeams() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [TEAMS_PATH] }),
      queryClient.invalidateQueries({ queryKey: [MEMBERS_PATH] }),
    ]);
}

/**
 * The tenant's teams for pickers (first 100 by name). Users without the teams
 * target get an error, which callers treat as "no list": the query is silent.
 */
export function useTeamOptions(enabled = true) {
  return useQuery({
    queryKey: [TEAMS_PATH, 'options'],
    queryFn: ({ signal }) => apiFetch<ListPage<TeamItem>>(`${TEAMS_PATH}?limit=100&sortBy=name`, { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}
