import { Timestamp } from './timestamp';

export type RecentPlant = { id: string; name: string; tag?: string; addedAt: string };

export function RecentPlants({ plants }: { plants: RecentPlant[] }) {
  return (
    <section aria-labelledby="recent-heading" className="card">
      <h2 id="recent-heading">Recent plants</h2>
      {plants.length === 0 ? (
        <p className="muted">No plants yet. The ones you add appear here, newest first.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Name</th>
                <th scope="col">Tag</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {plants.map((plant) => (
                <tr key={plant.id}>
                  <td className="mono">{plant.id}</td>
                  <td>{plant.name}</td>
                  <td>{plant.tag ?? <span className="muted">none</span>}</td>
                  <td>
                    <Timestamp iso={plant.addedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
