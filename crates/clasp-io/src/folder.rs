//! A folder of objects, as the field ships them: one mesh (or GraspIt body file) a file, or one
//! folder per object holding its meshes (YCB's `002_master_chef_can/google_16k/textured.obj`,
//! Objaverse's `<uid>/<uid>.glb`). What the CLI's `batch DIR/` and Python's dataset grasp.

use std::path::{Path, PathBuf};

use crate::{error::LoadError, geometry::GeometryFormat, kind::FileKind, source::Disk};

/// One object of a folder: its name (the file's stem, or its folder's name) and its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderObject {
    pub name: String,
    pub file: PathBuf,
}

/// Within an object's folder, the formats in the order one is taken over another at the same
/// depth: the textured OBJ YCB ships beside its PLY and STL first.
const PREFERRED: [&str; 9] = [
    "obj", "glb", "gltf", "ply", "stl", "stlb", "off", "iv", "wrl",
];

/// Every object of `folder`, by name: each mesh or GraspIt body file in it, and each folder in
/// it holding meshes (the object is its shallowest mesh, an OBJ before a GLB, glTF, PLY, STL,
/// OFF or Inventor file, then by path).
/// A folder with no mesh is an error of its own, naming it, and the rest go on; a folder that
/// cannot be read at all is one error.
pub fn objects_in_folder(folder: &Path) -> Result<Vec<Result<FolderObject, LoadError>>, LoadError> {
    let mut objects = Vec::new();
    for entry in sorted_entries(folder)? {
        if entry.is_dir() {
            objects.push(object_of_folder(&entry));
        } else if is_object_file(&entry) {
            objects.push(Ok(FolderObject {
                name: stem(&entry),
                file: entry,
            }));
        }
    }
    Ok(objects)
}

/// A folder's entries, by name.
fn sorted_entries(folder: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let read = std::fs::read_dir(folder)
        .map_err(|e| LoadError::new(folder, None, format!("cannot read the folder: {e}")))?;
    let mut entries: Vec<PathBuf> = read.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    Ok(entries)
}

/// A mesh, or a GraspIt body file (other XML, a world or a robot, is not an object).
fn is_object_file(path: &Path) -> bool {
    GeometryFormat::is_geometry_file(path)
        || matches!(FileKind::of(&Disk, path), Ok(FileKind::Body))
}

fn object_of_folder(folder: &Path) -> Result<FolderObject, LoadError> {
    let mut meshes = Vec::new();
    find_meshes(folder, 0, &mut meshes);
    let rank = |(depth, path): &(usize, PathBuf)| {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let format = PREFERRED.iter().position(|&p| p == extension);
        (*depth, format.unwrap_or(PREFERRED.len()), path.clone())
    };
    let best = meshes
        .iter()
        .min_by_key(|m| rank(m))
        .ok_or_else(|| LoadError::new(folder, None, "the object's folder holds no mesh file"))?;
    Ok(FolderObject {
        name: folder
            .file_name()
            .map_or_else(|| stem(folder), |n| n.to_string_lossy().into_owned()),
        file: best.1.clone(),
    })
}

/// Every mesh file under `folder`, with how deep it lies; unreadable folders are passed over.
fn find_meshes(folder: &Path, depth: usize, found: &mut Vec<(usize, PathBuf)>) {
    let Ok(entries) = sorted_entries(folder) else {
        return;
    };
    for entry in entries {
        if entry.is_dir() {
            find_meshes(&entry, depth + 1, found);
        } else if GeometryFormat::is_geometry_file(&entry) {
            found.push((depth, entry));
        }
    }
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_gives_its_meshes_and_each_object_folder_its_best_mesh() {
        let dir = std::env::temp_dir().join(format!("clasp-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files = [
            "can.obj",
            "notes.txt",
            "002_master_chef_can/google_16k/textured.obj",
            "002_master_chef_can/google_16k/nontextured.ply",
            "002_master_chef_can/google_16k/kinbody.xml",
            "002_master_chef_can/poisson/textured.obj",
            "abc123/abc123.glb",
            "empty/readme.md",
        ];
        for file in files {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "").unwrap();
        }
        let objects = objects_in_folder(&dir).unwrap();
        let found: Vec<(String, PathBuf)> = objects
            .iter()
            .filter_map(|o| o.as_ref().ok())
            .map(|o| {
                (
                    o.name.clone(),
                    o.file.strip_prefix(&dir).unwrap().to_path_buf(),
                )
            })
            .collect();
        let expect = |name: &str, file: &str| (name.to_owned(), PathBuf::from(file));
        assert_eq!(
            found,
            [
                expect(
                    "002_master_chef_can",
                    "002_master_chef_can/google_16k/textured.obj"
                ),
                expect("abc123", "abc123/abc123.glb"),
                expect("can", "can.obj"),
            ]
        );
        let errors: Vec<String> = objects
            .iter()
            .filter_map(|o| o.as_ref().err())
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].contains("empty: the object's folder holds no mesh file"),
            "{errors:?}"
        );
        assert!(objects_in_folder(&dir.join("missing")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
