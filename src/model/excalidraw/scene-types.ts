/**
 * A scene as the drawer and the projections read it (docs/excalidraw.md, "What is drawn"): the
 * fields Excalidraw's own renderer reads, with its defaults filled in. The stored scene keeps every
 * key of the file; this is only what is read from it.
 */

/** One element of the scene, in the scene's order (the order it is painted in). */
export interface SceneElement {
  /** Its place in the scene's `elements` array, from 0. */
  index: number;
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Radians, clockwise, about the element's centre. */
  angle: number;
  strokeColor: string;
  backgroundColor: string;
  fillStyle: string;
  strokeWidth: number;
  strokeStyle: string;
  roughness: number;
  /** 0 to 100. */
  opacity: number;
  /** The hand-drawn look's seed, a positive integer (docs/excalidraw.md, "What is drawn"). */
  seed: number;
  /** `null`, or Excalidraw's roundness: type 1 (legacy), 2 (proportional), 3 (adaptive). */
  roundness: { type: number; value?: number } | null;
  isDeleted: boolean;
  link: string | null;
  /** Lines, arrows and free draw: points relative to `x`, `y`. */
  points: [number, number][];
  /** Free draw: pressures, one per point, when recorded. */
  pressures: number[];
  simulatePressure: boolean;
  /** Free draw: the stroke was finished (Excalidraw's `lastCommittedPoint` is set). */
  lastCommitted: boolean;
  startArrowhead: string | null;
  endArrowhead: string | null;
  elbowed: boolean;
  text: string;
  fontSize: number;
  fontFamily: number;
  textAlign: string;
  verticalAlign: string;
  lineHeight: number;
  containerId: string | null;
  /** Images: the key of `files` holding the picture. */
  fileId: string | null;
  /** Images: `[sx, sy]`, -1 flips. */
  scale: [number, number];
  /** Frames: the name shown above. */
  name: string | null;
  /** Arrows: the ids of the elements its start and end are bound to. */
  startBound: string | null;
  endBound: string | null;
}

/** An embedded image of the scene's `files`, checked (docs/excalidraw.md, "What is refused"). */
export interface SceneFile {
  mimeType: string;
  dataURL: string;
}

/** A scene read and checked by {@link readScene}. */
export interface Scene {
  /** The scene text in canonical whitespace (docs/excalidraw.md, "The stored form"). */
  text: string;
  elements: SceneElement[];
  files: ReadonlyMap<string, SceneFile>;
  /** `appState.viewBackgroundColor`, when it is a colour string. */
  background: string | null;
  /** The bytes of the scene text taken by `files` (UTF-8), for the size message. */
  filesBytes: number;
}
