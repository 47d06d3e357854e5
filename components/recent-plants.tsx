import { DataTable, TimeCell } from './data-table';

export type RecentPlant = { id: string; name: string; tag?: string; addedAt: string };

export function RecentPlants({ plants }: { plants: RecentPlant[] }) {
  return (
    <section aria-labelledby="recent-heading" className="card">
      <h2 id="recent-heading">Recent plants</h2>
      {plants.length === 0 ? (
        <p className="muted">No plants yet. The ones you add appear here, newest first.</p>
      ) : (
        // A plant's name with its id under it: the id, up to 20 characters, on one line, which
        // beside the name as a column of its own left the name, the tag and the time too little room.
        <DataTable labelledBy="recent-heading" columns={['Plant', 'Tag', 'Added']} className="recent-plants">
          {plants.map((plant) => (
            <tr key={plant.id}>
              <td>
                {plant.name}
                <span className="plant-id mono">{plant.id}</span>
              </td>
              <td>{plant.tag ?? <span className="muted">none</span>}</td>
              <TimeCell iso={plant.addedAt} />
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
