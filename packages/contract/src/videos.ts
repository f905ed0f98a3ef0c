/**
 * Videos: one row per upload to one master app. The file (MP4, WebM or QuickTime, checked by
 * content) is stored once under its content hash, so rows of identical bytes share it. The row
 * keeps the spec's snake_case `video_id` and `library_id` (API.md, Videos).
 */
import { z } from 'zod';
import { STATUSES, Side, Status } from './enums.ts';
import {
  listQuery,
  listResponse,
  masterAppRef,
  mutationResponse,
  sortParam,
  version,
} from './common.ts';
import { id, optionalCalendarDate, optionalEnum, optionalId, timestamp } from './fields.ts';
import { defNum, position } from './posters.ts';
import { checkWindow, liveParam, scheduleFields, windowFields } from './schedules.ts';

/** Where video files live: the server's disk (`/media`) or object storage. */
export const VIDEO_LIBRARIES = ['local', 's3'] as const;

/** The stored file's id: the SHA-256 of its bytes, in lower-case hex. */
export const VIDEO_ID = /^[0-9a-f]{64}$/;

export const video = z.object({
  id: z.number().int(),
  version,
  masterAppId: z.number().int(),
  /** The stored file's id (its content hash): rows of identical bytes share it. */
  video_id: z.string(),
  /** The store holding the file. */
  library_id: z.enum(VIDEO_LIBRARIES),
  /** A page that plays the video (`/embed/video/{video_id}`), for an iframe. */
  iframeLink: z.string(),
  /** The file's URL (under /media, or the bucket's), served with range requests. */
  videoUrl: z.string(),
  position: Side,
  date: z.string().nullable(),
  downloadCount: z.number().int(),
  topDefNum: z.number().int(),
  selfDefNum: z.number().int(),
  bottomDefNum: z.number().int(),
  status: Status,
  ...windowFields,
  createdAt: timestamp,
  updatedAt: timestamp,
  masterApp: masterAppRef,
});
export type Video = z.infer<typeof video>;

/** The create's fields, without the window's check (for forms that extend them). */
export const videoCreateFields = z.strictObject({
  date: optionalCalendarDate,
  position,
  topDefNum: defNum,
  selfDefNum: defNum,
  bottomDefNum: defNum,
  masterAppId: id,
  ...scheduleFields,
});
/** Create: the video comes as the multipart file `file`. */
export const videoCreateBody = videoCreateFields.superRefine(checkWindow);
export type VideoCreateBody = z.input<typeof videoCreateBody>;

export const VIDEO_SORTS = ['createdAt', 'date', 'downloadCount', 'status'] as const;

export const videoListQuery = listQuery.extend({
  sort: sortParam(VIDEO_SORTS),
  status: optionalEnum(STATUSES),
  masterAppId: optionalId,
  live: liveParam,
});
export type VideoListQuery = z.input<typeof videoListQuery>;

export const videoList = listResponse(video);
export const videoMutation = mutationResponse(video);
/** The create's answer: the spec's `videoId` is the new row's id. */
export const videoCreated = z.object({
  message: z.string(),
  videoId: z.number().int(),
  result: video,
});

/** The path of the page that plays a stored video (outside the API base, like /media). */
export const embedVideoPath = (videoId: string) => `/embed/video/${videoId}`;
