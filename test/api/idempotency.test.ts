import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newToken, request, sharedServer, uniqueId } from '../support/api';

let token: string;
beforeAll(async () => {
  token = await newToken('idempotency tests');
});

const create = (id: bigint, name: string, tag?: string) =>
  request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": ${JSON.stringify(name)}${tag === undefined ? '' : `, "tag": ${JSON.stringify(tag)}`}}` });

describe('retrying a create is safe', () => {
  it('the same id, name and tag answers 200 with the stored plant, marked as replayed', async () => {
    const id = uniqueId();
    const first = await create(id, 'Pothos', 'vine');
    const again = await create(id, 'Pothos', 'vine');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('counts a trimmed name as the same name', async () => {
    const id = uniqueId();
    await create(id, 'Pothos');
    expect((await create(id, ' Pothos  ')).status).toBe(200);
  });

  it.each([
    ['another name', ['Pothos', 'vine'], ['Ivy', 'vine']],
    ['another tag', ['Pothos', 'vine'], ['Pothos', 'climber']],
    ['a tag where there was none', ['Pothos', undefined], ['Pothos', 'vine']],
    ['no tag where there was one', ['Pothos', 'vine'], ['Pothos', undefined]],
  ] as const)('the same id with %s is a 409, and the stored plant is untouched', async (_label, [name, tag], [otherName, otherTag]) => {
    const id = uniqueId();
    const first = await create(id, name, tag);
    expectError(await create(id, otherName, otherTag), 409, 40901, `id: a plant with id ${id} already exists with a different name or tag; choose another id`);
    expect((await request(sharedServer(), `/plants/${id}`, { token })).text).toBe(first.text);
  });
});

describe('concurrency', () => {
  it('40 racers on one id: exactly one is stored, every answer is a 200 or a 409', async () => {
    const id = uniqueId();
    const racers = Array.from({ length: 40 }, (_, index) => create(id, index % 2 === 0 ? 'Even' : 'Odd'));
    const responses = await Promise.all(racers);

    const stored = await request(sharedServer(), `/plants/${id}`, { token });
    expect(stored.status).toBe(200);
    const winner = (stored.body as { name: string }).name;
    expect(['Even', 'Odd']).toContain(winner);

    const created = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    expect(created).toHaveLength(1);
    responses.forEach((response, index) => {
      const sameAsWinner = (index % 2 === 0 ? 'Even' : 'Odd') === winner;
      if (sameAsWinner) expect(response.status, response.text).toBe(200);
      else expectError(response, 409, 40901);
    });

    const page = await request(sharedServer(), '/plants?limit=100', { token });
    expect(page.text.split(`"id":${id},`).length - 1).toBe(1);
  });

  it('300 concurrent creates all succeed and are all readable afterwards', async () => {
    const ids = Array.from({ length: 300 }, () => uniqueId());
    const responses = await Promise.all(ids.map((id, index) => create(id, `Bulk ${index}`)));
    expect(responses.map((r) => r.status)).toEqual(ids.map(() => 200));

    const reads = await Promise.all(ids.map((id) => request(sharedServer(), `/plants/${id}`, { token })));
    reads.forEach((read, index) => expect(read.text).toBe(`{"id":${ids[index]},"name":"Bulk ${index}"}`));
  });
});
