//! What several clasp-core test files share.

#![allow(dead_code)]

use clasp_collide::{CollisionEngine, Placed, ReferenceEngine, shapes};
use clasp_core::{
    Body, BodyKind, Chain, Coupling, Dof, DofKind, Joint, JointDynamics, JointFrame, JointKind,
    Link, Pose, Robot, TriMesh,
};

/// The gap between two bodies by the brute-force reference engine; `None` when they
/// interpenetrate.
pub fn reference_distance(a: &Body, b: &Body) -> Option<f64> {
    ReferenceEngine
        .distance(
            Placed::new(a.geometry(), a.pose()),
            Placed::new(b.geometry(), b.pose()),
        )
        .ok()
        .map(|s| s.distance)
}

/// RaiSim's contact API holds for a list of contacts (both sides of each): each body's list
/// is numbered 0, 1, …; a contact's pair index names its twin in the other body's list (none
/// when the other body is static) and the twin's names it back; both sides agree on the
/// points, the normal (pointing to object A) and the frame; exactly one side of each
/// self-contact is skipped; depth is the negative separation.
pub fn check_contact_api(contacts: &[clasp_core::Contact], case: &str) {
    use clasp_core::BodyType;
    let list = |body| contacts.iter().filter(move |c| c.body == body);
    for c in contacts {
        let own: Vec<_> = list(c.body).collect();
        assert!(std::ptr::eq(own[c.index], c), "{case}: index {}", c.index);
        assert_eq!(c.is_object_a, c.body < c.other, "{case}");
        assert_eq!(c.depth(), -c.separation, "{case}");
        assert_eq!(
            c.pair_index.is_none(),
            c.other_type == BodyType::Static,
            "{case}"
        );
        assert!((c.frame.rotation * nalgebra::Vector3::z() - c.normal.into_inner()).norm() < 1e-9);
        assert!(
            c.is_self_collision || !c.skip,
            "{case}: only self-contacts are skipped"
        );
        let Some(j) = c.pair_index else { continue };
        let twin = list(c.other)
            .nth(j)
            .unwrap_or_else(|| panic!("{case}: no twin {j}"));
        assert_eq!(twin.other, c.body, "{case}");
        let back = (c.body_type != BodyType::Static).then_some(c.index);
        assert_eq!(twin.pair_index, back, "{case}: the pair index round-trips");
        assert_eq!(
            (twin.point, twin.other_point),
            (c.other_point, c.point),
            "{case}"
        );
        assert_eq!(twin.normal, c.normal, "{case}: one normal, to object A");
        assert_eq!(twin.frame.rotation, c.frame.rotation, "{case}");
        assert_eq!(
            (twin.triangle, twin.other_triangle),
            (c.other_triangle, c.triangle)
        );
        assert_ne!(twin.is_object_a, c.is_object_a, "{case}");
        assert_eq!(twin.separation, c.separation, "{case}");
        assert_eq!(
            twin.model,
            c.model.seen_from_other(),
            "{case}: one model, seen from each side"
        );
        assert_eq!(twin.friction_edges, c.friction_edges, "{case}");
        assert!(
            !c.friction_edges.is_empty(),
            "{case}: every contact has its wrench space"
        );
        if c.is_self_collision {
            assert_ne!(
                twin.skip, c.skip,
                "{case}: exactly one side of a self-contact skips"
            );
        }
    }
}

pub fn cube(half: f64) -> TriMesh {
    shapes::cuboid([-half; 3], [half; 3])
}

pub fn body(name: &str, mesh: TriMesh, at: [f64; 3]) -> Body {
    let mut body = Body::from_mesh(name, BodyKind::Graspable, mesh);
    body = body.at(Pose::translation(at[0], at[1], at[2]));
    body
}

/// A finger joint turning about z, its frame `a` mm further along x.
pub fn joint(dof: usize, a: f64) -> Joint {
    Joint {
        kind: JointKind::Revolute,
        coupling: Coupling {
            dof,
            ratio: 1.0,
            offset: 0.0,
        },
        frame: JointFrame::DenavitHartenberg {
            theta: 0.0,
            d: 0.0,
            a,
            alpha: 0.0,
        },
        min: -1.5,
        max: 1.5,
        dynamics: JointDynamics::default(),
    }
}

pub fn link(name: &str, joint: usize) -> Link {
    Link {
        body: Body::from_mesh(
            name,
            BodyKind::Link,
            shapes::cuboid([-20.0, -2.0, -2.0], [0.0, 2.0, 2.0]),
        ),
        frame: Some(joint),
    }
}

/// A palm with two fingers of two links each, one DOF per finger; the fingers close (turn
/// toward each other) as DOF 0 falls and DOF 1 rises.
pub fn hand() -> Robot {
    let palm = Body::from_mesh(
        "palm",
        BodyKind::Palm,
        shapes::cuboid([-5.0, -15.0, -5.0], [5.0, 15.0, 5.0]),
    );
    let finger = |dof: usize, y: f64, turn: f64| {
        Chain::from_palm(
            Pose::from_parts(
                nalgebra::Translation3::new(5.0, y, 0.0),
                nalgebra::UnitQuaternion::from_axis_angle(&nalgebra::Vector3::z_axis(), turn),
            ),
            vec![joint(dof, 20.0), joint(dof, 20.0)],
            vec![link("proximal", 0), link("distal", 1)],
        )
    };
    let dofs = vec![
        Dof::new(DofKind::Rigid, 1.0, 0.0),
        Dof::new(DofKind::Rigid, -1.0, 0.0),
    ];
    Robot::new(
        "hand".into(),
        palm,
        dofs,
        vec![finger(0, 10.0, 0.0), finger(1, -10.0, 0.0)],
        None,
    )
}
