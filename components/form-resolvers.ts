// The forms' resolvers: the shared schemas through zodResolver. Imported only on demand
// (components/deferred-resolver.ts), so zod and the schemas reach a page when its form is first used.
import { zodResolver } from '@hookform/resolvers/zod';
import { NewPlantForm, PlantEditForm } from '@/lib/schemas/plant';

export const newPlantResolver = zodResolver(NewPlantForm);
export const plantEditResolver = zodResolver(PlantEditForm);
