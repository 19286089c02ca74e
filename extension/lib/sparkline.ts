/** Points of a small inline hit-rate chart: evenly spaced, 0–1 upwards, unknown values leave a gap instead of a 0. */

export interface SparkInput {
  value: number | null;
  marked: boolean;
}

export interface Spark {
  /** SVG path `d`; a null value breaks the line. */
  path: string;
  marks: { x: number; y: number }[];
  unknown: number;
}

export function sparkline(points: readonly SparkInput[], width: number, height: number, pad = 2): Spark {
  const n = points.length;
  const x = (i: number) => (n <= 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (n - 1));
  const y = (v: number) => pad + (1 - Math.min(1, Math.max(0, v))) * (height - 2 * pad);
  let path = '';
  let pen = false;
  const marks: Spark['marks'] = [];
  let unknown = 0;
  points.forEach((p, i) => {
    if (p.value === null) {
      unknown++;
      pen = false;
      if (p.marked) marks.push({ x: x(i), y: height - pad });
      return;
    }
    path += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`;
    pen = true;
    if (p.marked) marks.push({ x: x(i), y: y(p.value) });
  });
  return { path, marks, unknown };
}
