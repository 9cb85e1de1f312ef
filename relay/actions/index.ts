// THE table of client frames (WIRE-n): every read and every action type maps to
// one handler. A handler returns the ack's `result` or throws CommandrError;
// dispatch turns either into the one answer the client gets. Features not built
// yet answer E_UNAVAILABLE; their owners replace the entry with one import.
import { CommandrError } from '../../protocol/wire/errors';
import type { ActionFrame, ActionType, ReadFrame, ServerFrame } from '../../protocol/wire/frames';
import type { ClientInfo, RelayServices, SendOptions } from '../context';
import { deviceList, deviceRename, deviceRevoke } from './device';
import { machineRemove } from '../fleet/device-frames';
import { repoDone, subscribe } from '../watch/subscribe';
import { taskDiffRead } from './task-diff';
import { taskDetailRead, taskTimelineRead } from './task-detail';
import { taskNoteRead } from './task-note';
import { taskApprove } from './task-approve';
import { taskDeny } from './task-deny';
import { taskAnnotate } from './task-annotate';
import { taskCouncil } from './task-council';
import { taskMerge } from './task-merge';
import { taskPush } from './task-push';
import { taskPr } from './task-pr';
import { pushPrefs, pushSubscribe, pushUnsubscribe } from './push-actions';
import {
  commanderAddReference, commanderCreate, commanderDelete, commanderMessage, commanderOutputRead, commanderReplace, withCommanderList,
} from './commander-actions';
import { jobStop, taskRun, withJobList } from './task-run';
import { taskCreate } from './task-create';
import { permissionDecide, withPermissionList } from './permission-decide';
import { questionAnswer, questionDecide, withQuestionList } from '../questions/actions';
import { artifactOpen } from '../artifacts/open';
import { photoRead } from '../photos/serve';
import { viaFleet, withFleetState } from '../fleet/route';
import { createOnMember, viaMember } from '../fleet/forward-objects';

export interface ActionContext {
  services: RelayServices;
  device: { id: string; name: string };
  /** This connection (for `POST /api/action`, a stand-in with no socket). */
  client: ClientInfo;
  /** Sends to this client only (streaming answers such as task.diff chunks). */
  send(frame: ServerFrame, options?: SendOptions): void;
}

export type Handler<F> = (ctx: ActionContext, frame: F) => Promise<unknown>;
export type ReadType = ReadFrame['type'];

function unavailable(feature: string): Handler<unknown> {
  return async () => {
    throw new CommandrError('E_UNAVAILABLE', `${feature} is not available yet`);
  };
}

export const reads: { [K in ReadType]: Handler<Extract<ReadFrame, { type: K }>> } = {
  subscribe: withFleetState(withQuestionList(withJobList(withPermissionList(withCommanderList(subscribe))))),
  'task.diff': viaFleet(taskDiffRead),
  'task.detail': viaFleet(taskDetailRead),
  'task.timeline': viaFleet(taskTimelineRead),
  'task.note': viaFleet(taskNoteRead),
  'device.list': deviceList,
  'commander.output': viaMember(commanderOutputRead),
  'repo.done': viaFleet(repoDone),
  'client.visibility': async (ctx, frame) => {
    ctx.client.visible = frame.visible;
    return { visible: frame.visible };
  },
  'artifact.open': artifactOpen,
  'photo.read': photoRead,
};

export const actions: { [K in ActionType]: Handler<Extract<ActionFrame, { type: K }>> } = {
  'task.approve': viaFleet(taskApprove),
  'task.deny': viaFleet(taskDeny),
  'task.annotate': viaFleet(taskAnnotate),
  'task.council': viaFleet(taskCouncil),
  'task.run': viaFleet(taskRun),
  'commander.create': createOnMember(commanderCreate),
  'commander.message': viaMember(commanderMessage),
  'commander.replace': viaMember(commanderReplace),
  'commander.addReference': viaMember(commanderAddReference),
  'commander.delete': viaMember(commanderDelete),
  'permission.decide': viaMember(permissionDecide),
  'device.rename': deviceRename,
  'device.revoke': deviceRevoke,
  'push.subscribe': pushSubscribe,
  'push.unsubscribe': pushUnsubscribe,
  'push.prefs': pushPrefs,
  'task.create': taskCreate,
  'job.stop': viaMember(jobStop),
  'question.answer': questionAnswer,
  'question.decide': questionDecide,
  'machine.remove': machineRemove,
  'task.merge': viaFleet(taskMerge),
  'task.push': viaFleet(taskPush),
  'task.pr': viaFleet(taskPr),
};
