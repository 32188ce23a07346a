//! The core world as an ECS resource, and the entities that show its bodies.

use bevy::{picking::mesh_picking::MeshPickingCamera, prelude::*};
use clasp_core::{Body, BodyId, BodyKind, Material, World};

use crate::{camera::OrbitCamera, convert};

/// The simulated world: the single source of truth for poses. Entities only show it.
#[derive(Resource)]
pub struct SceneWorld {
    pub world: World,
    /// What the user opened, shown in the title bar of the panels ("default scene" or a path).
    pub source: String,
}

/// Marks the entity that shows one body of the world.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyView(pub BodyId);

/// The body's own colour, kept so that highlighting can be undone.
#[derive(Component, Debug, Clone, Copy)]
pub struct BaseColor(pub Color);

/// Messages for the user: load problems and the like, shown in the status bar.
#[derive(Resource, Default, Debug)]
pub struct Notices(pub Vec<String>);

pub struct ScenePlugin;

impl Plugin for ScenePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Notices>()
            .insert_resource(ClearColor(Color::srgb(0.13, 0.14, 0.17)))
            .insert_resource(GlobalAmbientLight {
                color: Color::WHITE,
                brightness: 400.0,
                ..default()
            })
            .add_systems(Startup, (spawn_bodies, spawn_camera_and_lights))
            .add_systems(Update, draw_ground_grid);
    }
}

fn spawn_bodies(
    mut commands: Commands,
    scene: Res<SceneWorld>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for id in scene.world.body_ids() {
        let Some(body) = scene.world.body(id) else {
            continue;
        };
        let color = body_color(body);
        commands.spawn((
            Name::new(body.name.clone()),
            BodyView(id),
            BaseColor(color),
            Pickable::default(),
            Mesh3d(meshes.add(convert::render_mesh(body.mesh()))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: color,
                perceptual_roughness: 0.55,
                reflectance: 0.3,
                ..default()
            })),
            convert::transform(&body.pose),
        ));
    }
}

/// The file's colour where it gives one; otherwise one that suggests the material.
fn body_color(body: &Body) -> Color {
    if let Some([r, g, b]) = body.color {
        return Color::linear_rgb(r, g, b);
    }
    match (body.kind, body.material) {
        (_, Material::Glass) => Color::srgb(0.62, 0.78, 0.86),
        (_, Material::Metal) => Color::srgb(0.70, 0.71, 0.74),
        (_, Material::Wood) => Color::srgb(0.72, 0.55, 0.36),
        (_, Material::Rubber) => Color::srgb(0.26, 0.27, 0.30),
        (_, Material::Stone) => Color::srgb(0.55, 0.54, 0.50),
        (_, Material::Frictionless) => Color::srgb(0.85, 0.85, 0.90),
        (_, Material::Generic) => Color::srgb(0.66, 0.68, 0.62),
        (BodyKind::Palm | BodyKind::Link, Material::Plastic) => Color::srgb(0.80, 0.81, 0.84),
        (_, Material::Plastic) => Color::srgb(0.90, 0.45, 0.20),
    }
}

fn spawn_camera_and_lights(mut commands: Commands, scene: Res<SceneWorld>) {
    let orbit = OrbitCamera::framing(scene.world.bounding_box());
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
