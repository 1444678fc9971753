// TriangleMeshShape::fromFile: OBJ, STL (and the other formats of assimp) to a mesh.
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <map>

#include "nsdyn/Error.hpp"
#include "nsdyn/TriangleMeshShape.hpp"

namespace nsdyn {

std::shared_ptr<const TriangleMeshShape> TriangleMeshShape::fromFile(const std::string& path,
                                                                     double scale) {
  if (!(std::isfinite(scale) && scale > 0.0))
    throw Error(path, "a scale finite and > 0", "scale = " + std::to_string(scale));
  Assimp::Importer importer;
  // Triangulate polygons; no other processing (no vertex joining: done below by position,
  // no removal of degenerate faces: the checks report them).
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate);
  if (!scene || !scene->mRootNode || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE))
    throw Error(path, "a readable mesh file (OBJ, STL or another format of assimp)",
                std::string(importer.GetErrorString()));
  std::vector<Vec3> vertices;
  std::vector<Triangle> triangles;
  std::map<Vec3, std::int32_t> index;  // vertices joined when their coordinates are equal
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    std::vector<std::int32_t> local(mesh->mNumVertices);
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      const Vec3 x{scale * static_cast<double>(p.x), scale * static_cast<double>(p.y),
                   scale * static_cast<double>(p.z)};
      if (!(std::isfinite(x[0]) && std::isfinite(x[1]) && std::isfinite(x[2]))) {
        // a NaN never equals itself: keep it as its own vertex, the checks name it
        local[v] = static_cast<std::int32_t>(vertices.size());
        vertices.push_back(x);
        continue;
      }
      const auto at = index.emplace(x, static_cast<std::int32_t>(vertices.size()));
      if (at.second) vertices.push_back(x);
      local[v] = at.first->second;
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      triangles.push_back(
          {local[face.mIndices[0]], local[face.mIndices[1]], local[face.mIndices[2]]});
    }
  }
  if (triangles.empty())
    throw Error(path, "a mesh file with at least one triangle",
                std::to_string(vertices.size()) + " vertices and no triangle");
  return std::make_shared<const TriangleMeshShape>(std::move(vertices), std::move(triangles), path);
}

}  // namespace nsdyn
