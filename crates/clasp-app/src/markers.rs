//! Contact markers, as GraspIt draws them: each rigid contact a translucent red friction cone
//! (an 8-sided pyramid, apex at the contact, axis along the normal, half-angle atan μ), each
//! soft contact the small patches of the two fitted surfaces. All markers form one mesh,
//! rebuilt when the world changes.

use bevy::{
    asset::RenderAssetUsages,
    mesh::{Indices, PrimitiveTopology},
    prelude::*,
};
use clasp_core::{BodyId, Contact, ContactModel, RecordedContact, World};
use nalgebra::{Point3, Vector3};

use crate::{
    convert,
    dragger::handles::perpendiculars,
    editor::{resources::Document, resources::ViewSettings, timeline::Timeline},
    overlay::{HandleGizmos, XrayGizmos, dimmed},
    systems::ClaspSystems,
};

/// GraspIt's friction pyramid has 8 sides.
pub const CONE_SIDES: usize = 8;

/// Triangles of every marker, in world coordinates (mm), and a normal line per cone.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MarkerGeometry {
    pub positions: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
    /// From the contact point along the normal, one cone height long.
    pub normal_lines: Vec<(Vec3, Vec3)>,
    /// Each cone's slanted edges and its rim, for the x-ray that shows it through a body.
    pub cone_edges: Vec<(Vec3, Vec3)>,
    /// Each contact's force of the last step, as the cone's body pushes the other: an arrow
    /// from the contact point, inside its cone while the contact sticks, on the cone's surface
    /// while it slides. The largest force is 1.5 cone heights long, the others to scale.
    pub force_arrows: Vec<(Vec3, Vec3)>,
    pub cones: usize,
    pub patches: usize,
}

impl MarkerGeometry {
    /// A pyramid with its apex at `apex`, opening along `axis` (unit), `height` long, with a
    /// base of half-width `height · tan_half_angle`; closed by its base.
    pub fn add_cone(
        &mut self,
        apex: Point3<f64>,
        axis: Vector3<f64>,
        tan_half_angle: f64,
        height: f64,
    ) {
        let (u, v) = perpendiculars(&axis);
        let first = self.positions.len() as u32;
        self.positions.push(convert::point(&apex).to_array());
        let centre = apex + axis * height;
        let radius = height * tan_half_angle;
        let rim: Vec<Vec3> = (0..CONE_SIDES)
            .map(|k| {
                let angle = std::f64::consts::TAU * k as f64 / CONE_SIDES as f64;
                convert::point(&(centre + (u * angle.cos() + v * angle.sin()) * radius))
            })
            .collect();
        self.positions.extend(rim.iter().map(|p| p.to_array()));
        let tip = convert::point(&apex);
        for (k, &corner) in rim.iter().enumerate() {
            self.cone_edges.push((tip, corner));
            self.cone_edges.push((corner, rim[(k + 1) % CONE_SIDES]));
        }
        self.positions.push(convert::point(&centre).to_array());
        let base = first + CONE_SIDES as u32 + 1;
        for k in 0..CONE_SIDES as u32 {
            let (a, b) = (first + 1 + k, first + 1 + (k + 1) % CONE_SIDES as u32);
            self.indices.extend([first, a, b, base, b, a]);
        }
        self.normal_lines
            .push((convert::point(&apex), convert::point(&centre)));
        self.cones += 1;
    }

    /// A surface sampled on a square grid (row-major): two triangles per cell.
    pub fn add_patch(&mut self, grid: &[Point3<f64>]) {
        let side = (grid.len() as f64).sqrt().round() as usize;
        if side < 2 || side * side != grid.len() {
            return;
        }
        let first = self.positions.len() as u32;
        self.positions
            .extend(grid.iter().map(|p| convert::point(p).to_array()));
        for row in 0..side - 1 {
            for col in 0..side - 1 {
                let at = |r: usize, c: usize| first + (r * side + c) as u32;
                let (a, b, c, d) = (
                    at(row, col),
                    at(row, col + 1),
                    at(row + 1, col + 1),
                    at(row + 1, col),
                );
                self.indices.extend([a, b, c, a, c, d]);
            }
        }
        self.patches += 1;
    }
}

/// The contact sides that get a cone: the object's side where a robot touches a free body
/// (GraspIt marks the object), else the pair's first side. Second sides of a robot's
/// self-contacts are skipped.
fn marked(world: &World, contact: &Contact) -> bool {
    if contact.skip || world.body(contact.body).is_none() {
        return false;
    }
    let free = |id: BodyId| matches!(id, BodyId::Free(_));
    match (free(contact.body), free(contact.other)) {
        (true, false) => true,
        (false, true) => false,
        _ => contact.is_object_a,
    }
}

/// Every marker of a world, one per contact: a soft contact's two fitted patches (whatever
/// pair it joins: a soft object on a table too), else a friction cone `cone_height` mm high
/// (opening away from its body, into the one it touches).
pub fn marker_geometry(world: &World, cone_height: f64) -> MarkerGeometry {
    let mut geometry = MarkerGeometry::default();
    for contact in world.contacts() {
        if !marked(world, contact) {
            continue;
        }
        if let ContactModel::Soft(soft) = &contact.model {
            geometry.add_patch(&soft.patch);
            geometry.add_patch(&soft.other_patch);
            continue;
        }
        // The normal points into this body; the cone of forces the other body can push with
        // stands on the surface, on the other body's side.
        let outward = -contact.inward().into_inner();
        geometry.add_cone(contact.point, outward, contact.static_friction, cone_height);
    }
    geometry.force_arrows = force_arrows(world, 1.5 * cone_height);
    geometry
}

/// An arrow for each contact the last step pushed at (see [`MarkerGeometry::force_arrows`]),
/// on the same side as its cone; the largest `longest` mm long.
fn force_arrows(world: &World, longest: f64) -> Vec<(Vec3, Vec3)> {
    // The impulse acts from B on A; the cone's body pushes the other with its opposite when
    // it is A.
    let pushes = |c: &Contact| match c.is_object_a {
        true => -c.world_impulse(),
        false => c.world_impulse(),
    };
    let marked = world
        .contacts()
        .iter()
        .filter(|c| marked(world, c))
        .map(|c| (c.point, pushes(c)));
    scaled_arrows(marked, longest)
}

/// The force arrows of a recording's moment: each contact's point is on its first body (A, the
/// side that carries the cone: a free body before a robot's), which pushes the other with the
/// opposite of the impulse it took.
pub fn recorded_force_arrows(contacts: &[RecordedContact], longest: f64) -> Vec<(Vec3, Vec3)> {
    scaled_arrows(contacts.iter().map(|c| (c.point, -c.impulse)), longest)
}

/// Arrows from each point along its push, the largest `longest` mm long; pushes of zero drawn
/// as nothing.
fn scaled_arrows(
    pushes: impl Iterator<Item = (Point3<f64>, Vector3<f64>)>,
    longest: f64,
) -> Vec<(Vec3, Vec3)> {
    let marked: Vec<(Point3<f64>, Vector3<f64>)> =
        pushes.filter(|(_, impulse)| impulse.norm() > 0.0).collect();
    let largest = marked.iter().map(|(_, f)| f.norm()).fold(0.0, f64::max);
    marked
        .iter()
        .map(|(point, impulse)| {
            let tip = point + impulse * (longest / largest);
            (convert::point(point), convert::point(&tip))
        })
        .collect()
}

/// Marks the entity that shows the markers.
#[derive(Component)]
pub struct ContactMarkers;

pub struct MarkersPlugin;

impl Plugin for MarkersPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_markers)
            // Right after the bodies (scene.rs), from the same document: cones never lag the
            // bodies they sit on. (The egui panels' pass is in PostUpdate too, in no declared
            // order with these: a panel's request may show the next frame, bodies and cones
            // together.)
            .add_systems(
                PostUpdate,
                rebuild_markers
                    .after(crate::scene::place_bodies)
                    .before(bevy::transform::TransformSystems::Propagate),
            )
            .add_systems(
                Update,
                (draw_normal_lines, draw_virtual_contacts, draw_approaches)
                    .in_set(ClaspSystems::View),
            );
    }
}

/// GraspIt's marker material: red, emissive, 80 % transparent.
fn spawn_markers(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        ContactMarkers,
        Visibility::Hidden,
        Mesh3d(meshes.add(to_mesh(&MarkerGeometry::default()))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgba(0.8, 0.0, 0.0, 0.2),
            emissive: LinearRgba::rgb(0.4, 0.0, 0.0),
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            double_sided: true,
            cull_mode: None,
            ..default()
        })),
        Transform::IDENTITY,
        Pickable::IGNORE,
    ));
}

/// The geometry the markers show now, kept for the normal lines and for tests.
#[derive(Component, Default)]
pub struct ShownMarkers(pub MarkerGeometry);

/// Builds the markers again when the document or the view settings changed, and only then.
fn rebuild_markers(
    mut commands: Commands,
    document: Res<Document>,
    view: Res<ViewSettings>,
    timeline: Res<Timeline>,
    markers: Query<(Entity, &Mesh3d, &mut Visibility), With<ContactMarkers>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    if !document.is_changed() && !view.is_changed() && !timeline.is_changed() {
        return;
    }
    let mut geometry = marker_geometry(&document.world, view.cone_height);
    // A recording's moment: the forces the run had, not those of the contacts found again.
    if let Some(contacts) = timeline.shown_recorded_contacts() {
        geometry.force_arrows = recorded_force_arrows(contacts, 1.5 * view.cone_height);
    }
    for (entity, mesh, mut visibility) in markers {
        *visibility = if view.contacts_shown && !geometry.indices.is_empty() {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if let Some(mut mesh) = meshes.get_mut(&mesh.0) {
            *mesh = to_mesh(&geometry);
        }
        commands
            .entity(entity)
            .insert(ShownMarkers(geometry.clone()));
    }
}

const CONE_EDGE: Color = Color::srgb(0.9, 0.1, 0.1);
const FORCE: Color = Color::srgb(1.0, 0.75, 0.0);

/// Each cone's normal and each force arrow, with the scene's depth; and a dimmed copy of every
/// cone, normal and arrow over the bodies, so that one inside a finger still shows.
fn draw_normal_lines(
    view: Res<ViewSettings>,
    markers: Query<&ShownMarkers>,
    mut gizmos: Gizmos,
    mut xray: Gizmos<XrayGizmos>,
) {
    if !view.contacts_shown {
        return;
    }
    for shown in &markers {
        for &(from, to) in &shown.0.normal_lines {
            gizmos.line(from, to, Color::BLACK);
            xray.line(from, to, dimmed(Color::BLACK));
        }
        for &(from, to) in &shown.0.cone_edges {
            xray.line(from, to, dimmed(CONE_EDGE));
        }
        if view.forces_shown {
            for &(from, to) in &shown.0.force_arrows {
                gizmos.arrow(from, to, FORCE);
                xray.arrow(from, to, dimmed(FORCE));
            }
        }
    }
}

/// Where each hand's virtual contacts are now, world mm, with their unit normals.
pub fn virtual_contact_points(world: &World) -> Vec<(Point3<f64>, Vector3<f64>)> {
    world
        .robots()
        .flat_map(|(_, robot)| robot.virtual_contacts_placed())
        .map(|p| (p.location, p.normal.normalize()))
        .collect()
}

/// View → Virtual contacts: each a small cyan ball with a line along its normal.
fn draw_virtual_contacts(
    document: Res<Document>,
    view: Res<ViewSettings>,
    mut gizmos: Gizmos<HandleGizmos>,
) {
    if !view.virtual_contacts_shown {
        return;
    }
    let color = Color::srgb(0.1, 0.85, 0.9);
    for (point, normal) in virtual_contact_points(&document.world) {
        let at = convert::point(&point);
        gizmos.sphere(Isometry3d::from_translation(at), 1.5, color);
        gizmos.line(at, at + convert::point(&Point3::from(normal * 8.0)), color);
    }
}

/// How long an approach arrow is drawn, mm.
const APPROACH_ARROW: f64 = 60.0;

/// Where each hand's palm faces now, world mm: the approach's reference point on the palm and
/// the unit direction it approaches along (hands with no approach have none).
pub fn approach_arrows(world: &World) -> Vec<(Point3<f64>, Vector3<f64>)> {
    world
        .robots()
        .filter_map(|(_, robot)| {
            let approach = robot.approach.as_ref()?;
            let palm = robot.pose();
            Some((
                palm * approach.reference,
                palm.rotation * approach.direction.into_inner(),
            ))
        })
        .collect()
}

/// How far each DOF is turned (radians) or slid (mm) to see which way Auto Grasp takes a
/// fingertip.
const CLOSING_NUDGE: f64 = 0.05;

/// How long a closing arrow is drawn, mm.
const CLOSING_ARROW: f64 = 25.0;

/// Where each fingertip goes as Auto Grasp closes the hand, world mm: the centre of each
/// chain's last link and the unit direction it moves when every DOF turns its closing way
/// (GraspIt's default velocities, or the senses Clasp inferred). A tip that does not move is
/// left out.
pub fn closing_arrows(world: &World) -> Vec<(Point3<f64>, Vector3<f64>)> {
    let mut arrows = Vec::new();
    for (_, robot) in world.robots() {
        let now = robot.dof_values().to_vec();
        let closed: Vec<f64> = (0..now.len())
            .map(|dof| {
                let sense = robot.dofs[dof].default_velocity.signum();
                let (lo, hi) = robot.dof_limits(dof);
                (now[dof] + sense * CLOSING_NUDGE).clamp(lo.min(now[dof]), hi.max(now[dof]))
            })
            .collect();
        let (before, after) = (robot.link_poses_at(&now), robot.link_poses_at(&closed));
        let mut first_link = 0;
        for chain in robot.chains() {
            first_link += chain.links.len();
            let Some(tip) = chain.links.last() else {
                continue;
            };
            let (lo, hi) = tip.body.mesh().bounding_box();
            let centre = nalgebra::center(&lo, &hi);
            let at = before[first_link - 1] * centre;
            let moved = after[first_link - 1] * centre - at;
            if moved.norm() > 1e-6 {
                arrows.push((at, moved.normalize()));
            }
        }
    }
    arrows
}

/// View → Approach and closing: an orange arrow from each palm the way it approaches, and a
/// green one on each fingertip the way Auto Grasp moves it.
fn draw_approaches(
    document: Res<Document>,
    view: Res<ViewSettings>,
    mut gizmos: Gizmos<HandleGizmos>,
) {
    if !view.approach_shown {
        return;
    }
    let color = Color::srgb(1.0, 0.45, 0.0);
    for (from, direction) in approach_arrows(&document.world) {
        let to = from + direction * APPROACH_ARROW;
        gizmos.arrow(convert::point(&from), convert::point(&to), color);
    }
    let closing = Color::srgb(0.2, 0.9, 0.3);
    for (from, direction) in closing_arrows(&document.world) {
        let to = from + direction * CLOSING_ARROW;
        gizmos.arrow(convert::point(&from), convert::point(&to), closing);
    }
}

/// The markers' render mesh. With no marker it is one degenerate triangle (hidden with its
/// entity): Bevy's render allocator cannot take an empty vertex or index buffer, and logs a
/// "use-after-free" error for each when a mesh goes empty.
fn to_mesh(geometry: &MarkerGeometry) -> Mesh {
    let mut mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    );
    let (positions, indices) = if geometry.indices.is_empty() {
        (vec![[0.0; 3]; 3], vec![0, 1, 2])
    } else {
        (geometry.positions.clone(), geometry.indices.clone())
    };
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    mesh.insert_indices(Indices::U32(indices));
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cone_has_its_apex_at_the_contact_and_the_half_angle_of_mu() {
        let mut geometry = MarkerGeometry::default();
        let apex = Point3::new(1.0, 2.0, 3.0);
        let axis = Vector3::new(0.0, 0.6, 0.8);
        geometry.add_cone(apex, axis, 0.5, 20.0);
        assert_eq!(geometry.cones, 1);
        assert_eq!(geometry.positions.len(), CONE_SIDES + 2);
        assert_eq!(geometry.indices.len(), CONE_SIDES * 6);
        let p = |i: usize| {
            let [x, y, z] = geometry.positions[i];
            Point3::new(x as f64, y as f64, z as f64)
        };
        assert!((p(0) - apex).norm() < 1e-5);
        for k in 1..=CONE_SIDES {
            let side = p(k) - apex;
            let along = side.dot(&axis);
            let across = (side - axis * along).norm();
            assert!((along - 20.0).abs() < 1e-4, "{along}");
            assert!((across / along - 0.5).abs() < 1e-5, "half-angle atan μ");
        }
    }

    #[test]
    fn a_patch_grid_becomes_two_triangles_a_cell() {
        let grid: Vec<Point3<f64>> = (0..9)
            .map(|i| Point3::new((i % 3) as f64, (i / 3) as f64, 0.0))
            .collect();
        let mut geometry = MarkerGeometry::default();
        geometry.add_patch(&grid);
        assert_eq!(geometry.indices.len(), 4 * 6);
        geometry.add_patch(&grid[..5]);
        assert_eq!(
            geometry.patches, 1,
            "a grid that is not square is not drawn"
        );
    }
}
