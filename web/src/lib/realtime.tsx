/**
 * The browser's end of realtime (server/modules/realtime): one socket per
 * signed-in tab, rooms joined by the pages that show a record, and the
 * connection's state for the offline banner. Events carry ids only; what to
 * refetch is decided by the app (app/realtime), which knows the features'
 * query keys.
 *
 * Reconnecting: the client retries with backoff when the connection drops;
 * when the server closed it (logout, blocked, changed rules) it tries once
 * more after a pause, and a refused handshake means the session is over.
 * After every reconnect the rooms are joined again and the app refetches what
 * it may have missed.
 */
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import {
  type Ack, type ChangedEvent, type JoinAck, type PresenceEvent, type PresenceUser, REALTIME_PATH, type Room, roomName,
  type ShownDocument,
} from '../../../core/realtime.js';

export type ConnectionState = 'connecting' | 'online' | 'offline' | 'signed-out';

export interface RealtimeHandlers {
  changed(event: ChangedEvent): void;
  /** After a reconnect, or when the server lost what happened meanwhile: refetch everything shown. */
  resync(): void;
  /** The server refused the session: it has ended. */
  signedOut(): void;
}

export class RealtimeClient {
  readonly socket: Socket;
  private state: ConnectionState = 'connecting';
  private listeners = new Set<() => void>();
  private everConnected = false;
  private closed = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(handlers: RealtimeHandlers, options: { url?: string; transports?: string[] } = {}) {
    this.socket = io(options.url ?? '', {
      path: REALTIME_PATH,
      withCredentials: true,
      transports: options.transports ?? ['websocket', 'polling'],
      reconnectionDelay: 500,
      reconnectionDelayMax: 10_000,
      randomizationFactor: 0.5,
    });
    this.socket.on('connect', () => {
      if (this.everConnected) handlers.resync();
      this.everConnected = true;
      this.set('online');
    });
    this.socket.on('disconnect', (reason) => {
      if (this.closed) return;
      this.set('offline');
      // The server closed it (logout, blocked, changed rules): one more try, which is authorised afresh.
      if (reason === 'io server disconnect') {
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.socket.connect(), 300 + Math.random() * 700);
      }
    });
    this.socket.on('connect_error', (error) => {
      if (error.message === 'UNAUTHORIZED') {
        this.socket.disconnect();
        this.set('signed-out');
        handlers.signedOut();
        return;
      }
      this.set('offline');
    });
    this.socket.on('changed', (event: ChangedEvent) => handlers.changed(event));
    this.socket.on('resync', () => handlers.resync());
  }

  get connection(): ConnectionState {
    return this.state;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const l of this.listeners) l();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.socket.disconnect();
  }
}

const RealtimeContext = createContext<RealtimeClient | null>(null);

/** Opens the socket for the signed-in frame and closes it when the frame goes. */
export function RealtimeProvider({ handlers, children }: { handlers: RealtimeHandlers; children: ReactNode }) {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const [client, setClient] = useState<RealtimeClient | null>(null);
  useEffect(() => {
    const c = new RealtimeClient({
      changed: (e) => handlersRef.current.changed(e),
      resync: () => handlersRef.current.resync(),
      signedOut: () => handlersRef.current.signedOut(),
    });
    setClient(c);
    return () => c.close();
  }, []);
  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

export function useRealtimeClient(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

const noClient = () => () => {};
/** 'online', 'offline', ...: for the offline banner. Without a socket (tests, signed out) it is 'online'. */
export function useConnectionState(): ConnectionState {
  const client = useRealtimeClient();
  return useSyncExternalStore(client?.subscribe ?? noClient, () => client?.connection ?? 'online');
}

export interface RoomState {
  joined: boolean;
  users: PresenceUser[];
  shown: ShownDocument | null;
}

/**
 * Joins a room while the component is shown (and again after every
 * reconnect), and follows who is there and, in a review room, which document
 * is being shown. `room` null joins nothing.
 */
export function useRoom(room: Room | null): RoomState {
  const client = useRealtimeClient();
  const [state, setState] = useState<RoomState>({ joined: false, users: [], shown: null });
  const name = room ? roomName(room) : null;
  useEffect(() => {
    if (!client || !room || !name) return;
    const socket = client.socket;
    let active = true;
    const join = () => {
      socket
        .timeout(5000)
        .emitWithAck('join', room)
        .then((ack: JoinAck) => {
          if (!active) return;
          setState(ack.ok ? { joined: true, users: ack.users, shown: ack.shown } : { joined: false, users: [], shown: null });
        })
        .catch(() => {});
    };
    const onPresence = (e: PresenceEvent) => e.room === name && setState((s) => ({ ...s, users: e.users }));
    const caseId = room.kind === 'review' ? room.id : null;
    const onShow = (e: { caseId: number; fileId: string; by: PresenceUser }) => e.caseId === caseId && setState((s) => ({ ...s, shown: { fileId: e.fileId, by: e.by } }));
    const onCancel = (e: { caseId: number }) => e.caseId === caseId && setState((s) => ({ ...s, shown: null }));
    socket.on('connect', join);
    socket.on('presence', onPresence);
    socket.on('show_doc', onShow);
    socket.on('cancel_show_doc', onCancel);
    if (socket.connected) join();
    return () => {
      active = false;
      socket.off('connect', join);
      socket.off('presence', onPresence);
      socket.off('show_doc', onShow);
      socket.off('cancel_show_doc', onCancel);
      if (socket.connected) socket.emit('leave', room);
      setState({ joined: false, users: [], shown: null });
    };
    // The room is identified by its name; the object may be new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, name]);
  return state;
}

/** Sends an event of the document review room; resolves with the server's answer. */
export function useRoomEmit(): (event: 'show_doc' | 'cancel_show_doc' | 'accept_doc' | 'refresh_page', payload: object) => Promise<Ack> {
  const client = useRealtimeClient();
  return useMemo(
    () => async (event, payload) => {
      if (!client?.socket.connected) return { ok: false, code: 'BAD_REQUEST' } as Ack;
      try {
        return (await client.socket.timeout(5000).emitWithAck(event, payload)) as Ack;
      } catch {
        return { ok: false, code: 'BAD_REQUEST' } as Ack;
      }
    },
    [client],
  );
}

/** Listens to one server event while mounted (review events: accept_doc, refresh_page, available_docs). */
export function useRealtimeEvent<T>(event: string, handler: (payload: T) => void): void {
  const client = useRealtimeClient();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!client) return;
    const on = (payload: T) => ref.current(payload);
    client.socket.on(event, on);
    return () => {
      client.socket.off(event, on);
    };
  }, [client, event]);
}
