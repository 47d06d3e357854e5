import { DataTable, TimeCell } from './data-table';

export type RecentPlant = { id: string; name: string; tag?: string; addedAt: string };

export function RecentPlants({ plants }: { plants: RecentPlant[] }) {
  return (
    <section aria-labelledby="recent-heading" className="card">
      <h2 id="recent-heading">Recent plants</h2>
      {plants.length === 0 ? (
        <p className="muted">No plants yet. The ones you add appear here, newest first.</p>
      ) : (
        <DataTable labelledBy="recent-heading" columns={['ID', 'Name', 'Tag', 'Added']}>
          {plants.map((plant) => (
            <tr key={plant.id}>
              <td className="mono">{plant.id}</td>
              <td>{plant.name}</td>
              <td>{plant.tag ?? <span className="muted">none</span>}</td>
              <TimeCell iso={plant.addedAt} />
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
