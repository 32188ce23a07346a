//! The core world as an ECS resource, and the entities that show its bodies.

use bevy::{picking::mesh_picking::MeshPickingCamera, prelude::*};
use std::{collections::HashSet, sync::Arc};

use clasp_core::{Body, BodyId, Geometry};

use crate::{
    camera::OrbitCamera,
    convert,
    editor::{resources::Document, resources::Framing, resources::ViewSettings},
    systems::ClaspSystems,
};

/// Marks the entity that shows one body of the world.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyView(pub BodyId);

/// The body's own colour, kept so that highlighting can be undone.
#[derive(Component, Debug, Clone, Copy)]
pub struct BaseColor(pub Color);

pub struct ScenePlugin;

impl Plugin for ScenePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(Color::srgb(0.13, 0.14, 0.17)))
            .insert_resource(GlobalAmbientLight {
                color: Color::WHITE,
                brightness: 400.0,
                ..default()
            })
            .add_systems(Startup, spawn_camera_and_lights)
            .add_systems(
                PostUpdate,
                (respawn_bodies, place_bodies)
                    .chain()
                    .before(bevy::transform::TransformSystems::Propagate),
            )
            .add_systems(
                Update,
                (draw_ground_grid, draw_wireframes).in_set(ClaspSystems::View),
            );
    }
}

/// The geometry a view was made from: when a body of the same id comes back with another
/// (a world opened in place of this one), the view is made again.
#[derive(Component)]
pub struct ShownGeometry(Arc<Geometry>);

/// Keeps one entity per body: whenever the document changed, views of bodies that are gone
/// (a deletion, an undo, another world) go, and bodies without a view get one.
fn respawn_bodies(
    mut commands: Commands,
    document: Res<Document>,
    views: Query<(Entity, &BodyView, &ShownGeometry)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if !document.is_changed() {
        return;
    }
    let world = &document.world;
    let mut shown = HashSet::new();
    for (entity, view, geometry) in &views {
        match world.body(view.0) {
            Some(body) if Arc::ptr_eq(body.geometry(), &geometry.0) => {
                shown.insert(view.0);
            }
            _ => commands.entity(entity).despawn(),
        }
    }
    for id in world.body_ids() {
        let Some(body) = world.body(id).filter(|_| !shown.contains(&id)) else {
            continue;
        };
        let color = body_color(body);
        commands.spawn((
            Name::new(body.name.clone()),
            BodyView(id),
            ShownGeometry(body.geometry().clone()),
            BaseColor(color),
            Pickable::default(),
            Mesh3d(meshes.add(convert::render_mesh(body.shown_mesh()))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: color,
                perceptual_roughness: 0.55,
                reflectance: 0.3,
                ..default()
            })),
            convert::transform(&body.pose()),
        ));
    }
}

/// Keeps every view where its body is, in the colour of its material, whenever the document
/// or the view settings changed.
pub fn place_bodies(
    document: Res<Document>,
    view_settings: Res<ViewSettings>,
    mut views: Query<(&BodyView, &mut Transform, &mut BaseColor)>,
) {
    if !document.is_changed() && !view_settings.is_changed() {
        return;
    }
    let alpha = if view_settings.transparent { 0.35 } else { 1.0 };
    for (view, mut transform, mut base) in &mut views {
        let Some(body) = document.world.body(view.0) else {
            continue;
        };
        let pose = convert::transform(&body.pose());
        if *transform != pose {
            *transform = pose;
        }
        let color = body_color(body).with_alpha(alpha);
        if base.0 != color {
            base.0 = color;
        }
    }
}

/// Bodies of at most this many triangles show their edges in wireframe view: drawing more
/// each frame would slow the view down more than it helps.
const WIREFRAME_TRIANGLE_LIMIT: usize = 20_000;

/// The View menu's wireframe: every triangle's edges, over the shaded bodies.
fn draw_wireframes(document: Res<Document>, view: Res<ViewSettings>, mut gizmos: Gizmos) {
    if !view.wireframe {
        return;
    }
    let color = Color::srgba(0.1, 0.1, 0.12, 0.6);
    for id in document.world.body_ids() {
        let Some(body) = document.world.body(id) else {
            continue;
        };
        let mesh = body.mesh();
        if mesh.triangles().len() > WIREFRAME_TRIANGLE_LIMIT {
            continue;
        }
        let corners: Vec<Vec3> = mesh
            .vertices()
            .iter()
            .map(|v| convert::point(&(body.pose() * v)))
            .collect();
        for t in mesh.triangles() {
            let [a, b, c] = t.map(|i| corners[i as usize]);
            gizmos.linestrip([a, b, c, a], color);
        }
    }
}

/// The body's colour, the same the headless renderer draws it in.
fn body_color(body: &Body) -> Color {
    let [r, g, b] = body.display_color();
    Color::linear_rgb(r, g, b)
}

fn spawn_camera_and_lights(mut commands: Commands, document: Res<Document>) {
    let start = OrbitCamera::framing(None);
    let orbit = Framing::opening(&document.world).map_or(start, |f| start.framed(&f));
    commands.spawn((
        Camera3d::default(),
        Projection::Perspective(PerspectiveProjection {
            near: 1.0,
            far: 100_000.0,
            ..default()
        }),
        Msaa::Sample4,
        MeshPickingCamera,
        orbit.transform(),
        orbit,
    ));
    // A warm key light from the front left and a cool fill from behind: shapes read without shadows.
    commands.spawn((
        DirectionalLight {
            illuminance: 6_000.0,
            color: Color::srgb(1.0, 0.97, 0.92),
            ..default()
        },
        Transform::from_xyz(-0.5, -1.0, 1.4).looking_at(Vec3::ZERO, Vec3::Z),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2_000.0,
            color: Color::srgb(0.85, 0.9, 1.0),
            ..default()
        },
        Transform::from_xyz(0.8, 1.0, 0.5).looking_at(Vec3::ZERO, Vec3::Z),
    ));
}

/// The ground: a 1 m square grid of 20 mm cells on z = 0, with the x (red) and y (green) axes.
fn draw_ground_grid(mut gizmos: Gizmos) {
    gizmos.grid(
        Isometry3d::IDENTITY,
        UVec2::splat(50),
        Vec2::splat(20.0),
        Color::srgba(0.6, 0.62, 0.68, 0.35),
    );
    gizmos.line(Vec3::ZERO, Vec3::X * 100.0, Color::srgb(0.9, 0.25, 0.2));
    gizmos.line(Vec3::ZERO, Vec3::Y * 100.0, Color::srgb(0.3, 0.8, 0.3));
}
