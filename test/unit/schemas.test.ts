import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../lib/shared/validation';
import { NewPlant, NewPlantForm } from '../../lib/schemas/plant';

const problems = (schema: typeof NewPlant | typeof NewPlantForm, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? '' : describeIssues(result.error.issues);
};

describe('NewPlant', () => {
  it('accepts the full int64 range as bigint and strips unknown fields', () => {
    expect(NewPlant.parse({ id: 9223372036854775807n, name: 'x', extra: 1 })).toEqual({ id: 9223372036854775807n, name: 'x' });
  });

  it('names the field and rule of each problem', () => {
    expect(problems(NewPlant, {})).toBe('id: is required; name: is required');
    expect(problems(NewPlant, { id: 1.5, name: ' ' })).toBe(
      'id: must be an integer without fraction or exponent; name: must not be empty',
    );
  });
});

describe('NewPlantForm (the staff form)', () => {
  it('turns typed digits into an exact bigint and an empty tag into no tag', () => {
    expect(NewPlantForm.parse({ id: ' 9223372036854775807 ', name: 'Fern', tag: '' })).toEqual({
      id: 9223372036854775807n,
      name: 'Fern',
    });
  });

  it('holds typed input to the same rules as the API', () => {
    expect(problems(NewPlantForm, { id: '', name: '', tag: '' })).toBe('id: is required; name: must not be empty');
    expect(problems(NewPlantForm, { id: '12a', name: 'x', tag: '' })).toBe('id: must be a whole number');
    expect(problems(NewPlantForm, { id: '9223372036854775808', name: 'x', tag: 't'.repeat(101) })).toBe(
      'id: must be at most 9223372036854775807; tag: must be at most 100 characters',
    );
  });
});
