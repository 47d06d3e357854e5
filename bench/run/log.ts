// npm run bench's progress lines.
export const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);
