// Video calls: signalling refusals and the screen's words.
// One definition of each text; src/shared/texts.ts re-exports this file.

/** Video calls (issue 18, docs/operating/video.md): refusals of the signalling and the screen's words. */
export const VIDEO_TEXT = {
  roomInvalid: 'A room name is 1 to 128 letters, digits and . _ @ + -',
  forbidden: 'You are not invited to this room',
  checkingAccess: 'Checking whether you may join…',
  /** A call for a named room its sender may not enter (issue 35): the invitation would lend a way in. */
  callRoomForbidden: (room: string, permission: string): string =>
    `You cannot call people into the room ${room}: it needs the permission ${permission} or an invitation to the room`,
  full: (max: number): string => `This room is full (${max} people)`,
  notJoined: 'Join the room first',
  callNotRinging: (status: string): string => `The call is already ${status}`,
  callNotFound: 'No such call',
  /** The composer's note beside a named room the session holds no right to (an invitation may do). */
  callRoomNeeds: (room: string, permission: string): string =>
    `Calling people into the room ${room} needs the permission ${permission}, or an invitation to the room`,
  /** "Call" reached nobody (every recipient was skipped), so there is no room to go to. */
  callReachedNobody: 'Nobody was called: none of the recipients can receive a call',
  noCamera: 'No camera or microphone could be opened. Check the browser permission, or join without them.',
  insecure: 'Camera and microphone need a secure page (https:// or localhost).',
  reconnecting: 'Reconnecting…',
  connectionLost: 'The connection to the server was lost; the call resumes when it returns.',
  /** The lobby's list when the server is out of reach: not "No calls yet", which would be a guess. */
  callsOffline:
    'Recent calls cannot be shown: they and the calls themselves need a connection to the server.',
  /** A call notification's button and the console's invitation button. */
  decline: 'Decline',
  backToConsole: 'Back to the console',
} as const
